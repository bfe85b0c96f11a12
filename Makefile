# SPDX-License-Identifier: GPL-2.0-or-later
# A thin front for meson + ninja. `make run` measures, `make test` tests.
BUILD ?= build
AUDIOLAT = $(BUILD)/src/cli/audiolat

.PHONY: all deps build run test test-kernel mutants bench fuzz clean

all: build

deps:
	@AUDIOLAT_DEPS_DIR=$(BUILD)/deps scripts/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# the default measurement: the simulated card, 3 x 64 frames at 48 kHz,
# through latencytest's phases in 42 s (idle, procfs, disk write/copy/read, hackbench)
run: build
	$(AUDIOLAT) run --load latencytest-short --file-size 128M

test: build
	scripts/check $(BUILD)

# only the kernel tests: real ALSA drivers in a qemu guest (docs/kernel-tests.md)
test-kernel: build
	scripts/check $(BUILD) --suite kernel

# planted faults (docs/testing.md): each of tests/mutants/faults in turn, in a
# copy of the tree (build-mutants/), against the tests that cover it; not part
# of `make test`. MUTANTS="NAME..." runs only those.
mutants: deps
	scripts/mutants $(MUTANTS)

# every libFuzzer target for FUZZ_SECONDS each (make test runs them for 2 s)
FUZZ_SECONDS ?= 60
fuzz: build
	BUILD_DIR=$(BUILD) tests/fuzz/run-libfuzzer.sh $(FUZZ_SECONDS)

bench: build
	bench/vs-cyclictest.sh

clean:
	rm -rf $(BUILD)
