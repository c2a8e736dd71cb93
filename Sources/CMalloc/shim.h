#pragma once
// glibc's malloc tuning (mallopt), which Swift's Glibc module leaves out.
#include <malloc.h>
