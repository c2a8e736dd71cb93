# beacon2mqtt — see README.md. `make demo` and `make test` do all set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
BIN := .build/debug/beacon2mqtt

.PHONY: all build deps test demo demo-floors bench fuzz clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Every unit and integration test; failures and a summary (what ran, what was skipped and why) on
# the terminal, the whole output in .build/test.log (scripts/test.sh).
test: deps
	@scripts/test.sh

demo: deps
	@scripts/demo.sh

demo-floors: deps
	@scripts/demo.sh floors

bench: deps
	@scripts/bench.sh

# The locator's growth curves (docs/images/locator-growth.png) from a results file with section
# locator-broker (`make bench` or `scripts/bench.sh locator-broker`); matplotlib from PyPI in a venv.
LOCATOR_RESULTS ?= bench/results/latest.json
.PHONY: locator-plot
locator-plot:
	@scripts/install-deps.sh python3-venv
	@test -x .build/plot-venv/bin/python || python3 -m venv .build/plot-venv
	@.build/plot-venv/bin/python -c "import matplotlib" 2>/dev/null || .build/plot-venv/bin/pip install -q matplotlib
	.build/plot-venv/bin/python scripts/plot_locator.py $(LOCATOR_RESULTS) docs/images/locator-growth.png

# libFuzzer targets (docs/testing.md, "Fuzzing"); FUZZ_ARGS="--seconds 20" or "--runs N" and target names.
FUZZ_ARGS ?=
fuzz: deps
	@scripts/fuzz.sh $(FUZZ_ARGS)

clean:
	rm -rf .build

# The release build's and the package's tests (PackagingTests with B2M_PACKAGE_TESTS=1): a release
# build, and an install into a fresh Debian root (debootstrap: about 215 MB from the mirror, cached
# under .build/debroot; as root). Not part of `make test`; .ci/run runs it after it.
.PHONY: test-deb
test-deb: deps
	$(SWIFT) build --build-tests
	B2M_PACKAGE_TESTS=1 $(SWIFT) test --skip-build --filter PackagingTests 2>&1 \
	  | grep -vE '^(\[[0-9]+/[0-9]+\]|Test Case .* started|◇ Test .* started)'; exit $${PIPESTATUS[0]}

# Debian package: release build (static Swift runtime), lintian (errors fail), then the install test
# in a fresh Debian root (cached under .build/debroot). Output: .build/deb/beacon2mqtt_<version>_<arch>.deb
.PHONY: deb
deb: deps
	@deb=$$(scripts/build-deb.sh) && Tests/packaging/install-test.sh "$$deb"

# beacon2mqtt on a real Linux Bluetooth stack in a qemu guest (root; see docs/testing.md, "Kernel tests").
.PHONY: test-kernel
test-kernel: deps
	@scripts/test-kernel.sh

# Faults through real processes (docs/reliability.md; as root: it mounts tmpfs state directories): broker and agent SIGKILLed at seeded moments, a
# stalled broker, skewed gateway clocks, a partitioned gateway. B2M_CHAOS_SEED picks the moments (default 17); figures go to .build/chaos-results.txt.
.PHONY: test-chaos
test-chaos: deps
	$(SWIFT) build --build-tests
	rm -f .build/chaos-results.txt
	B2M_CHAOS=1 $(SWIFT) test --skip-build --filter ChaosTests 2>&1 | grep -vE '^(\[[0-9]+/[0-9]+\]|Test Case .* started|◇ Test .* started)'; \
	  status=$${PIPESTATUS[0]}; cat .build/chaos-results.txt 2>/dev/null; exit $$status

# The agent failing over between two mosquittos (mqtt.failover); the agent and the locator against amqtt (PyPI, into .build/amqtt-venv) and RabbitMQ's MQTT plugin (Debian's
# rabbitmq-server: a private node, and a three-node cluster with a node SIGKILLed, on loopback ports, never the system service) — docs/reliability.md, "Other brokers".
.PHONY: test-brokers
test-brokers: deps
	@scripts/install-deps.sh rabbitmq-server
	@test -x .build/amqtt-venv/bin/amqtt || { python3 -m venv .build/amqtt-venv && .build/amqtt-venv/bin/pip install -q amqtt==0.12.1; }
	$(SWIFT) build --build-tests
	rm -f .build/chaos-results.txt
	B2M_BROKERS=1 $(SWIFT) test --skip-build --filter 'OtherBrokerTests|RabbitMQTests|RabbitClusterTests|FailoverTests' 2>&1 | grep -vE '^(\[[0-9]+/[0-9]+\]|Test Case .* started|◇ Test .* started)'; \
	  status=$${PIPESTATUS[0]}; cat .build/chaos-results.txt 2>/dev/null; exit $$status

# A real Prometheus server (Debian's prometheus package) scrapes a running agent; promtool checks the
# exposition (Tests/IntegrationTests/PrometheusScrapeTests.swift; see docs/testing.md).
.PHONY: test-metrics
test-metrics:
	@scripts/install-deps.sh prometheus
	$(SWIFT) build --build-tests
	BEACON2MQTT_TEST_METRICS=1 $(SWIFT) test --skip-build --filter 'PrometheusScrapeTests|RunMetricsTests' 2>&1 \
	  | grep -vE '^(\[[0-9]+/[0-9]+\]|Test Case .* started|◇ Test .* started)'; exit $${PIPESTATUS[0]}

# The live map in headless Chromium (Debian's chromium): /map follows a simulated walk through
# server-sent events; writes docs/images/live-map.png (scripts/test-map.sh; docs/testing.md).
.PHONY: test-map
test-map: deps
	@scripts/test-map.sh

# Theengs Gateway's messages made by the real Theengs decoder (PyPI TheengsDecoder, into .build/theengs-venv)
# from the recorded captures, read by the locator's foreign sources (docs/locator.md, "Foreign receivers").
.PHONY: test-foreign
test-foreign: deps
	@scripts/install-deps.sh python3-venv
	@test -x .build/theengs-venv/bin/python || python3 -m venv .build/theengs-venv
	@.build/theengs-venv/bin/python -c "import TheengsDecoder" 2>/dev/null || .build/theengs-venv/bin/pip install -q TheengsDecoder==2.5.0
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter 'TheengsDecoderTests|ForeignSource' 2>&1 | grep -vE '^(\[[0-9]+/[0-9]+\]|Test Case .* started|◇ Test .* started)'; \
	  exit $${PIPESTATUS[0]}

# beacon2mqtt against a real Home Assistant from PyPI, run as root in a Debian testing root with its
# Python 3.14, made once under .build/ha-root (docs/testing.md, "Home Assistant"): discovery against the
# release's MQTT schemas, states, availability, restarts, removal, recorder rows, README's configuration.
.PHONY: test-ha
test-ha: deps
	@scripts/test-ha.sh
