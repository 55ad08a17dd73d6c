# brisk's front door. `make demo` and `make test` work on a fresh Debian 12
# machine as root: they install what is missing, configure, build and run.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_FLAGS ?=
CI_FLAGS   := $(if $(CI),-DBRISK_WERROR=ON,)
CTEST_ARGS ?=

.PHONY: all deps configure build demo test bench asan format lint install clean ruby

all: build

deps:
	@scripts/install-deps

$(BUILD)/build.ninja: | deps
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CI_FLAGS) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

# Under 3 minutes on 2 cores: plots, JSON and CSV land in ./brisk-demo/.
demo: build
	./$(BUILD)/brisk demo --out brisk-demo

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The full sweeps, everything written to ./brisk-bench/ (JSON, CSV, plots).
BENCH_OUT ?= brisk-bench
bench: build
	mkdir -p $(BENCH_OUT)
	./$(BUILD)/brisk bench spawn --sweep --out $(BENCH_OUT)
	./$(BUILD)/bench/brisk-gbench --benchmark_min_time=0.5 \
	  --benchmark_out=$(BENCH_OUT)/gbench.json --benchmark_out_format=json

$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBRISK_BUILD_BENCH=OFF \
	  -DBRISK_SANITIZE=address,undefined $(CI_FLAGS) $(CMAKE_FLAGS)

asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The Ruby gem: the extension in the build tree (what `make test` uses) and
# an installable brisk-<version>.gem in $(BUILD)/ruby, linked with the libbrisk
# just built. Install it with `gem install --local $(BUILD)/ruby/brisk-*.gem`
# (BRISK_ROOT=$(CURDIR) when installing from elsewhere).
ruby: build
	mkdir -p $(BUILD)/ruby
	cd bindings/ruby && gem build brisk.gemspec --output $(abspath $(BUILD))/ruby/brisk.gem
	@echo "make ruby: $(BUILD)/ruby/brisk.gem; extension for tests in $(BUILD)/bindings/ruby/lib"

SOURCES = $(shell git ls-files '*.cc' '*.h')

format:
	@BRISK_DEV_TOOLS=1 scripts/install-deps
	clang-format -i $(SOURCES)

lint: configure
	@BRISK_DEV_TOOLS=1 scripts/install-deps
	clang-tidy -p $(BUILD) --quiet $(filter %.cc,$(SOURCES))

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
