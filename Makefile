# Conclave: build, run and test wrappers around meson.
#   make run    install what is missing, build, start conclaved on 127.0.0.1:7717
#   make test   install what is missing, build with ASan+UBSan, run every suite
BUILD      ?= build
TEST_BUILD ?= build-test
LISTEN     ?= 127.0.0.1:7717
HTTP       ?= 127.0.0.1:7718
DATA_DIR   ?= conclave-data
ARGS       ?=
# What building and running needs (make deps, for make run and make build):
# the compiler, meson and ninja, the libraries conclaved and conclave link,
# python3 for the build's generators, and check for the unit tests, which
# every build configures.
DEPS       := gcc libc6-dev python3 meson ninja-build pkg-config libuv1-dev \
              libjansson-dev libsodium-dev check libedit-dev libwebsockets-dev \
              libwebsockets-evlib-uv libssl-dev
# What only the tests add (make test-deps, for make test): nm and objdump
# for the boundary checks, clang-format, openssl for the tests'
# certificates, the Prometheus parser and the schema checks, the
# cryptography module for the stand-in push service, podman for the
# image test.
TEST_DEPS  := binutils clang-format openssl python3-prometheus-client python3-jsonschema \
              python3-yaml python3-cryptography podman
# And the browser suites' (make browser-deps, for make test): Debian's
# Chromium and Node.js, and a Chinese font for the Chinese boards'
# screenshots.
BROWSER_DEPS := chromium nodejs fonts-wqy-microhei

.PHONY: install all deps test-deps browser-deps build run test bench bench-bots fuzz clean image

all: build

# A shell function: need PKG... installs Debian packages (as root, or with
# sudo), or says what to run and fails.
NEED = need() { \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "apt-get install -y $$*"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$$@"; \
	  elif command -v sudo >/dev/null 2>&1; then \
	    echo "sudo apt-get install -y $$*"; \
	    sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$$@"; \
	  else \
	    echo "missing packages; as root run: apt-get install -y $$*"; return 1; \
	  fi; \
	}

# INSTALLED = installed PKG...: installs those of the Debian packages
# PKG... that are missing (dpkg -s says "Status: install ok installed" only
# of a package really there, not of one removed with its configuration
# left).
INSTALLED = installed() { \
	  missing=""; \
	  for p in "$$@"; do \
	    dpkg -s $$p 2>/dev/null | grep -q '^Status: install ok installed' || missing="$$missing $$p"; \
	  done; \
	  [ -z "$$missing" ] || need $$missing; \
	}

deps:
	@$(NEED); $(INSTALLED); installed $(DEPS)

test-deps:
	@$(NEED); $(INSTALLED); installed $(TEST_DEPS)

# The browser tests: Debian's chromium and Node.js, and puppeteer-core at
# the version pinned in tests/browser/package-lock.json (no browser
# download: the tests drive /usr/bin/chromium).
browser-deps:
	@$(NEED); $(INSTALLED); installed $(BROWSER_DEPS) || exit 1; \
	command -v npm >/dev/null 2>&1 || need npm || exit 1; \
	if [ ! -f tests/browser/node_modules/.package-lock.json ] || \
	   [ tests/browser/package-lock.json -nt tests/browser/node_modules/.package-lock.json ]; then \
	  echo "npm ci (tests/browser)"; \
	  (cd tests/browser && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund) || exit 1; \
	fi

$(BUILD)/build.ninja:
	meson setup $(BUILD) -Dbuildtype=debugoptimized

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

run: build
	./$(BUILD)/server/conclaved --listen $(LISTEN) --http $(HTTP) --data-dir $(DATA_DIR) $(ARGS)

$(TEST_BUILD)/build.ninja:
	meson setup $(TEST_BUILD) -Dbuildtype=debug -Db_sanitize=address,undefined -Db_lundef=false

# The image test (tests/image) packs the release build's conclaved (only
# that target of $(BUILD) is built here).
test: deps test-deps browser-deps $(BUILD)/build.ninja $(TEST_BUILD)/build.ninja
	@ninja -C $(BUILD) server/conclaved || { echo "0 passed, 1 failed (the build failed)"; exit 1; }
	@ninja -C $(TEST_BUILD) || { echo "0 passed, 1 failed (the build failed)"; exit 1; }
	@status=0; CONCLAVED_RELEASE=$(CURDIR)/$(BUILD)/server/conclaved \
	  meson test -C $(TEST_BUILD) --print-errorlogs --num-processes 3 || status=$$?; \
	python3 tests/meta/summary.py $(TEST_BUILD)/meson-logs/testlog.json; \
	exit $$status

# make image: the conclaved container image (deploy/container), built by
# podman from the local build alone: no base image is pulled.
IMAGE   ?= conclave
VERSION := $(shell sed -n "s/^  version: '\(.*\)',$$/\1/p" meson.build)
image: build
	deploy/container/stage.sh $(BUILD)/server/conclaved $(BUILD)/image
	podman build -t $(IMAGE):$(VERSION) -t $(IMAGE):latest -f deploy/container/Containerfile \
	  $(BUILD)/image

# make install: conclave and conclaved into $(PREFIX)/bin (default
# /usr/local), so that `conclave` is on the PATH.
PREFIX ?= /usr/local
install: build
	meson configure $(BUILD) -Dprefix=$(PREFIX)
	meson install -C $(BUILD)

bench: build
	meson test -C $(BUILD) --benchmark --verbose --no-suite bots

# make bench-bots: the bots' strength and decision times (hours of CPU).
bench-bots: build
	meson test -C $(BUILD) --benchmark --verbose --suite bots

# make fuzz: install clang and its fuzzer runtime when missing, build the
# libFuzzer targets in build-fuzz (libraries with coverage, ASan and UBSan,
# optimised as fuzzers usually are: -O2 with debug info runs the game
# targets about twice as fast as -O0) and run each for a bounded time
# (tests/fuzz/meson.build).
fuzz: deps
	@$(NEED); \
	command -v clang >/dev/null 2>&1 || need clang || exit 1; \
	probe=$$(mktemp -d); \
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' > $$probe/probe.c; \
	clang -fsanitize=fuzzer $$probe/probe.c -o $$probe/probe >/dev/null 2>&1; ok=$$?; rm -rf $$probe; \
	[ $$ok = 0 ] || need libclang-rt-$$(clang -dumpversion | cut -d. -f1)-dev || exit 1
	@test -f build-fuzz/build.ninja || CC=clang meson setup build-fuzz -Dfuzzing=true \
	  -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false \
	  -Dc_args=-fsanitize=fuzzer-no-link
	ninja -C build-fuzz
	meson test -C build-fuzz --suite fuzz-run --print-errorlogs

clean:
	rm -rf $(BUILD) $(TEST_BUILD) build-fuzz
