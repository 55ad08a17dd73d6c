# brisk's front door. `make demo` and `make test` work on a fresh Debian 12
# machine as root: they install what is missing, configure, build and run.
# Each installs only its own profile of packages (scripts/install-deps) and
# builds only what it runs: the demo needs three programs, not the tests.
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
FUZZ_BUILD ?= build-fuzz
JOBS       ?= $(shell nproc)
CMAKE_FLAGS ?=
CI_FLAGS   := $(if $(CI),-DBRISK_WERROR=ON,)
CTEST_ARGS ?=
# `make test` runs twice as many tests as there are cores: most of a network
# test's time is spent waiting on the kernel (namespace teardown, RCU), and
# each test binary has a /run/netns of its own (tests/support/
# own_netns_dir.sh), so no test meets another's named namespaces. The
# whole suite: 76-88 s at -j4 against 93-103 s at -j2 (5 runs each way, no
# failure). The sanitizer runs stay at one test a core: they are CPU-bound.
CTEST_JOBS ?= $(shell echo $$(( $(JOBS) * 2 )))
# The programs `make demo` runs (`brisk demo` execs brisk-bench, whose CNI
# section runs brisk-bridge).
DEMO_TARGETS := brisk-cli brisk-bench brisk-bridge

.PHONY: all deps configure build demo-programs demo image test bench asan tsan fuzz soak format format-check lint install clean ruby python

all: build

deps:
	@scripts/install-deps test

# Configured again on every build (0.4 s): a package installed since, such
# as ruby-dev for the binding, is found without a clean tree.
configure:
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CI_FLAGS) $(CMAKE_FLAGS) >/dev/null

build: deps configure
	cmake --build $(BUILD) -j $(JOBS)

# The demo's packages and programs, for `make demo` and `make bench`.
demo-programs:
	@scripts/install-deps demo
	@$(MAKE) --no-print-directory configure
	cmake --build $(BUILD) -j $(JOBS) --target $(DEMO_TARGETS)

demo: demo-programs
	./$(BUILD)/brisk demo --out brisk-demo

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(CTEST_JOBS) $(CTEST_ARGS)

# brisk's CNI image as an OCI archive, with no registry: the installer and
# the plugins it finds in $(BUILD) (docs/install-cni.md).
IMAGE ?= $(BUILD)/brisk-cni.oci.tar
CNI_IMAGE_TARGETS := brisk-cni-install brisk-bridge brisk-portmap
image:
	@scripts/install-deps image
	@$(MAKE) --no-print-directory configure
	cmake --build $(BUILD) -j $(JOBS) --target $(CNI_IMAGE_TARGETS)
	scripts/build-cni-image --build-dir $(BUILD) --out $(IMAGE)

# The full sweeps, everything written to ./brisk-bench/ (JSON, CSV, plots).
BENCH_OUT ?= brisk-bench
# The Python benches run the package from the build tree (bench/python/).
PYBENCH = PYTHONPATH=$(abspath $(BUILD))/bindings/python:$(CURDIR)/bindings/python $(PYTHON)
# Everything into $(BENCH_OUT): tables (*.txt), JSON, CSV and charts. The
# docs/performance.md's tables and docs/plots/ come from such runs.
bench: demo-programs
	cmake --build $(BUILD) -j $(JOBS) --target brisk-gbench
	mkdir -p $(BENCH_OUT)
	./$(BUILD)/brisk bench spawn --sweep --out $(BENCH_OUT)
	./$(BUILD)/brisk bench link --n 10000 --out $(BENCH_OUT) > $(BENCH_OUT)/link.txt && cat $(BENCH_OUT)/link.txt
	./$(BUILD)/brisk bench containers --n 1000 --repeat 3 --out $(BENCH_OUT) > $(BENCH_OUT)/containers.txt && cat $(BENCH_OUT)/containers.txt
	./$(BUILD)/brisk bench ip > $(BENCH_OUT)/ip.txt && cat $(BENCH_OUT)/ip.txt
	./$(BUILD)/brisk bench cni --n 1000 --out $(BENCH_OUT) > $(BENCH_OUT)/cni.txt && cat $(BENCH_OUT)/cni.txt
	./$(BUILD)/brisk bench startup --n 500 > $(BENCH_OUT)/startup.txt && cat $(BENCH_OUT)/startup.txt
	./$(BUILD)/bench/brisk-gbench --benchmark_min_time=0.5 \
	  --benchmark_out=$(BENCH_OUT)/gbench.json --benchmark_out_format=json
	@scripts/install-deps test
	cmake --build $(BUILD) -j $(JOBS) --target brisk_python
	$(PYBENCH) bench/python/bench_spawn.py --as-nobody --json $(BENCH_OUT)/python-spawn.json \
	  > $(BENCH_OUT)/python-spawn.txt && cat $(BENCH_OUT)/python-spawn.txt
	$(PYBENCH) bench/python/bench_pyroute2.py --json $(BENCH_OUT)/python-pyroute2.json \
	  > $(BENCH_OUT)/python-pyroute2.txt && cat $(BENCH_OUT)/python-pyroute2.txt

# Long runs kept out of `make test`: 100,000 captured spawns and 10 cycles of
# 10,000 interfaces in a throwaway netns; fds, children and RSS must stay flat.
soak: build
	./$(BUILD)/soak/brisk-soak all

$(ASAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBRISK_BUILD_BENCH=OFF \
	  -DBRISK_SANITIZE=address,undefined $(CI_FLAGS) $(CMAKE_FLAGS)

asan: deps $(ASAN_BUILD)/build.ninja
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The concurrency tests under ThreadSanitizer (GCC's libtsan, which g++
# brings): many threads spawning, signals during spawns, run_all, pipelines,
# pipelined netlink batches (a send thread beside the caller), sockets made on
# a helper thread in a netns, a batch file parsed on two threads, and a long
# batch's device names looked up on a helper (test_cli_threads: those two of
# the CLI's tests alone).
# No suppressions. Everything of spawn, command and netlink also passes with
# TSAN_TESTS='^(spawn|command|netlink)\.' except the tests of the glibc
# vfork() fallback: TSan turns vfork() into fork(), so a child that shares
# our memory, which those tests check, cannot exist under TSan.
TSAN_TESTS ?= ^(spawn\.SpawnConcurrency|spawn\.SpawnSignals|command\.RunAll|command\.Leaks|command\.Pipeline|netlink\.BatchTest|netlink\.BatchLogic|netlink\.SendThread|netlink\.Netns|cli\.IpBatchParse|cli\.NamePrefetch|cli\.NamePrefetchBatch)\.

$(TSAN_BUILD)/build.ninja: | deps
	cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DBRISK_BUILD_BENCH=OFF \
	  -DBRISK_SANITIZE=thread $(CI_FLAGS) $(CMAKE_FLAGS)

tsan: deps $(TSAN_BUILD)/build.ninja
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target test_spawn test_command test_netlink test_cli_threads
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  ctest --test-dir $(TSAN_BUILD) --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)' $(CTEST_ARGS)

# libFuzzer targets (fuzz/), built with clang under ASan+UBSan, each run for
# FUZZ_SECONDS, $(JOBS) at a time. New inputs go to $(FUZZ_BUILD)/run/<target>;
# the seeds in fuzz/corpus and the crashes in fuzz/regressions are only read.
# Any crash, leak or hang fails; its input is saved as
# $(FUZZ_BUILD)/run/<target>/crash-* (add it to fuzz/regressions/<target>/).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= netlink_reply ip_batch run_batch_lines json_lines cni_config lease_store

$(FUZZ_BUILD)/build.ninja: | deps
	@scripts/install-deps fuzz
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DBRISK_FUZZ=ON -DBRISK_BUILD_TESTS=OFF -DBRISK_BUILD_BENCH=OFF $(CMAKE_FLAGS)

fuzz: deps $(FUZZ_BUILD)/build.ninja
	@scripts/install-deps fuzz
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))
	@printf '%s\n' $(FUZZ_TARGETS) | xargs -P $(JOBS) -I{} sh -c '\
	  run=$(FUZZ_BUILD)/run/{}; rm -rf $$run; mkdir -p $$run/corpus; \
	  if $(FUZZ_BUILD)/fuzz/fuzz_{} -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 \
	       -artifact_prefix=$$run/ $$run/corpus fuzz/corpus/{} $$(ls -d fuzz/regressions/{} 2>/dev/null) \
	       >$$run/log.txt 2>&1; \
	  then echo "fuzz {}: $$(grep -o "cov: [0-9]* ft: [0-9]*" $$run/log.txt | tail -n 1),\
	 $$(grep stat::number_of_executed_units $$run/log.txt | grep -o "[0-9]*$$") runs in $(FUZZ_SECONDS) s"; \
	  else tail -n 40 $$run/log.txt; echo "fuzz {}: FAILED, input in $$run/"; exit 1; fi'

# The Ruby gem: the extension in the build tree (what `make test` uses) and
# an installable brisk-<version>.gem in $(BUILD)/ruby, linked with the libbrisk
# just built. Install it with `gem install --local $(BUILD)/ruby/brisk-*.gem`
# (BRISK_ROOT=$(CURDIR) when installing from elsewhere).
ruby: build
	mkdir -p $(BUILD)/ruby
	cd bindings/ruby && gem build brisk.gemspec --output $(abspath $(BUILD))/ruby/brisk.gem
	@echo "make ruby: $(BUILD)/ruby/brisk.gem; extension for tests in $(BUILD)/bindings/ruby/lib"

# The Python package: installed with pip into the venv $(PYTHON_VENV), made
# with --system-site-packages so that Debian's python3-pyroute2 and pytest
# stay visible. Debian's Python is externally managed: a venv is the
# documented way, `PYTHON_VENV=/path make python` picks another. Linked with
# the libbrisk just built (setup.py finds it in $(BUILD)/src).
PYTHON      ?= /usr/bin/python3
PYTHON_VENV ?= $(BUILD)/python-venv
python: build
	test -x $(PYTHON_VENV)/bin/pip || $(PYTHON) -m venv --system-site-packages $(PYTHON_VENV)
	BRISK_BUILD=$(abspath $(BUILD)) $(PYTHON_VENV)/bin/pip install --no-build-isolation --no-index \
	  --quiet --force-reinstall --no-deps ./bindings/python
	@echo "make python: brisk installed into the venv $(PYTHON_VENV); run $(PYTHON_VENV)/bin/python,"
	@echo "  or install elsewhere: python3 -m venv --system-site-packages VENV &&"
	@echo "  VENV/bin/pip install --no-build-isolation --no-index $(CURDIR)/bindings/python"

SOURCES = $(shell git ls-files '*.cc' '*.h')

format:
	@scripts/install-deps dev
	clang-format -i $(SOURCES)

# CI's check: every source as clang-format (.clang-format) would write it.
format-check:
	@scripts/install-deps dev
	@clang-format --dry-run -Werror $(SOURCES) && echo "format-check: $(words $(SOURCES)) files as clang-format writes them"

lint: deps configure
	@scripts/install-deps dev
	clang-tidy -p $(BUILD) --quiet $(filter %.cc,$(SOURCES))

# Stripped programs; their debug info under $prefix/lib/debug (docs/building.md).
install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD) $(FUZZ_BUILD)
