#pragma once
// BlueZ libbluetooth (GPL-2.0-or-later). Only the raw HCI socket layer uses it.
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

// ioctl request numbers are _IOR/_IOW macros, which Swift cannot import.
static const unsigned long cbluez_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long cbluez_HCIGETDEVINFO = HCIGETDEVINFO;
static const unsigned long cbluez_HCIDEVUP = HCIDEVUP;
static const unsigned long cbluez_HCIDEVDOWN = HCIDEVDOWN;
static const unsigned long cbluez_HCIDEVRESET = HCIDEVRESET;
