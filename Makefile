# nvscope - build, test and set-up.  `make run` and `make check` do all set-up
# on a fresh Debian 12 machine (they call `make deps`, which apt-installs what is
# missing).
VERSION   := 0.1.0
CC        ?= cc
PKGS      := ncursesw libnvme liburing libcjson inih blkid nettle libxxhash
DEB_BUILD := build-essential pkg-config libncurses-dev libnvme-dev liburing-dev librsvg2-bin \
             check libcjson-dev libinih-dev libblkid-dev nettle-dev libxxhash-dev
DEB_TEST  := tmux util-linux e2fsprogs dosfstools fio python3 python3-six python3-pandas chromium \
             python3-fusepy zstd blktrace time openssh-server openssh-client iptables
DEB_VM    := qemu-system-x86 busybox-static cpio kmod xz-utils file
DEB_FUZZ  := clang libfuzzer-14-dev

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

BUILD   ?= build
NPROC   := $(shell nproc 2>/dev/null || echo 2)
# tests/run.sh (docs/testing.md): J tests at once (default 2 per CPU; J=1
# serial), T a pattern of test names, and each run's wall-clock budget in
# seconds (enforced in CI, CI=true: the run fails past it)
J       ?=
T       ?=
CHECK_BUDGET ?= 480
ASAN_BUDGET  ?= 600
TSAN_BUDGET  ?= 720
RUN_TESTS = J=$(J) NVS_TESTS=$(T) tests/run.sh
OPT     ?= -O2 -g
SAN     ?=
NVS_CFLAGS := $(OPT) $(SAN) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
           -DNVS_VERSION='"$(VERSION)"' -Iinclude -Isrc $(PKG_CFLAGS) $(CFLAGS)
NVS_LDFLAGS := $(SAN) $(LDFLAGS)
LDLIBS  += $(PKG_LIBS) -pthread -lm

SRCS     := $(sort $(wildcard src/*/*.c src/*/*/*.c))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
TSRCS    := $(sort $(wildcard tests/unit/test_*.c))
TOBJS    := $(TSRCS:%.c=$(BUILD)/%.o)

.PHONY: all deps deps-test deps-vm run check check-unit check-vm asan tsan asan-build tsan-build \
        bench clean format install deps-fuzz fuzz fuzz-build fuzz-smoke
BIN ?= nvscope
all: $(BIN)

$(BIN): $(OBJS) $(MAIN_OBJ)
	$(CC) $(NVS_CFLAGS) $(NVS_LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(NVS_CFLAGS) -MMD -MP -c -o $@ $<

# The unit-test runner: every tests/unit/test_*.c defines `Suite *X_suite(void)`;
# the list of suites is generated so that adding a test file needs no edit here.
$(BUILD)/tests/suites.h: $(TSRCS)
	@mkdir -p $(dir $@)
	@sed -n 's/^Suite \*\([a-z0-9_]*_suite\)(void)$$/S(\1)/p' $(TSRCS) > $@.tmp && mv $@.tmp $@
$(BUILD)/tests/unit/runner.o: tests/unit/runner.c $(BUILD)/tests/suites.h
	@mkdir -p $(dir $@)
	$(CC) $(NVS_CFLAGS) -I$(BUILD)/tests -c -o $@ $<
$(BUILD)/unit-tests: $(BUILD)/tests/unit/runner.o $(TOBJS) $(OBJS)
	$(CC) $(NVS_CFLAGS) $(NVS_LDFLAGS) -o $@ $^ $(LDLIBS) $(CHECK_LIBS)

# Installs the Debian packages that are missing (root, or through sudo).
deps:
	@tools/deps.sh $(DEB_BUILD)
deps-test:
	@tools/deps.sh $(DEB_BUILD) $(DEB_TEST)
deps-vm:
	@tools/deps.sh $(DEB_BUILD) $(DEB_TEST) $(DEB_VM)

run: deps
	@$(MAKE) --no-print-directory all
	@tools/make-run.sh

check: deps-test
	@$(MAKE) --no-print-directory -j$(NPROC) all $(BUILD)/unit-tests
	@NVS_BUILD=$(BUILD) NVS_BIN=./$(BIN) NVS_BUDGET=$(CHECK_BUDGET) $(RUN_TESTS)

check-unit: all $(BUILD)/unit-tests
	@CK_FORK=yes $(BUILD)/unit-tests

check-vm: deps-vm
	@$(MAKE) --no-print-directory all
	@NVS_BIN=./$(BIN) tests/vm/run.sh

# asan-build / tsan-build: the sanitizer binaries alone (.ci/run builds
# them in the background of `make check`'s tests)
asan-build:
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build-asan BIN=build-asan/nvscope \
	  OPT="-O1 -g" SAN="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  all build-asan/unit-tests
tsan-build:
	@$(MAKE) --no-print-directory -j$(NPROC) BUILD=build-tsan BIN=build-tsan/nvscope \
	  OPT="-O1 -g" SAN="-fsanitize=thread" all build-tsan/unit-tests

asan:
	@$(MAKE) --no-print-directory deps-test
	@$(MAKE) --no-print-directory asan-build
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp NVS_BUILD=build-asan NVS_BIN=build-asan/nvscope \
	  NVS_SANITIZER=asan NVS_BUDGET=$(ASAN_BUDGET) $(RUN_TESTS)

tsan:
	@$(MAKE) --no-print-directory deps-test
	@$(MAKE) --no-print-directory tsan-build
	@NVS_BUILD=build-tsan NVS_BIN=build-tsan/nvscope NVS_SANITIZER=tsan NVS_BUDGET=$(TSAN_BUDGET) $(RUN_TESTS)

bench: all
	bench/vs-fio.sh

# libFuzzer harnesses (tests/fuzz/NAME.c -> build-fuzz/fuzz-NAME, see
# docs/fuzzing.md): every object but main.o again with clang and the fuzz
# sanitizers.  `make fuzz` runs each target FUZZ_TIME seconds (new inputs go
# to build-fuzz/corpus/NAME, the kept seeds are tests/fuzz/corpus/NAME);
# `make fuzz-smoke` (CI) first runs every kept corpus file as a regression
# input, then fuzzes each target FUZZ_SMOKE_TIME seconds, FUZZ_JOBS targets
# at once (tests/fuzz/smoke.sh; default one per CPU; FUZZ_ONLY="a b" for
# some targets).  Any crash, UB,
# leak or timeout fails.
FUZZ_CC      ?= clang
FUZZ_BUILD   := build-fuzz
FUZZ_TIME    ?= 60
FUZZ_SMOKE_TIME ?= 20
FUZZ_JOBS    ?=
FUZZ_ONLY    ?=
FUZZ_FLAGS   ?=
FUZZ_TARGETS := $(sort $(basename $(notdir $(wildcard tests/fuzz/*.c))))
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g $(FUZZ_SAN) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
                -DNVS_VERSION='"$(VERSION)"' -Iinclude -Isrc $(PKG_CFLAGS)
FUZZ_OBJS    := $(SRCS:%.c=$(FUZZ_BUILD)/%.o)
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz-%)
FUZZ_RUN     = ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
               $(FUZZ_BUILD)/fuzz-$(1) -timeout=10 -print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/ \
               $(if $(wildcard tests/fuzz/$(1).dict),-dict=tests/fuzz/$(1).dict) $(FUZZ_FLAGS) </dev/null

$(FUZZ_BUILD)/src/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FUZZ_BUILD)/fuzz-%: tests/fuzz/%.c tests/fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

.SECONDARY: $(FUZZ_OBJS)
deps-fuzz:
	@tools/deps.sh $(DEB_BUILD) $(DEB_FUZZ)

fuzz: deps-fuzz
	@$(MAKE) --no-print-directory -j$(NPROC) $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t; echo "== fuzz $$t ($(FUZZ_TIME) s)"; \
	  $(call FUZZ_RUN,$$t) -max_total_time=$(FUZZ_TIME) $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t; \
	done

fuzz-build: deps-fuzz
	@$(MAKE) --no-print-directory -j$(NPROC) $(FUZZ_BINS)
fuzz-smoke: fuzz-build
	@FUZZ_BUILD=$(FUZZ_BUILD) FUZZ_SMOKE_TIME=$(FUZZ_SMOKE_TIME) FUZZ_FLAGS="$(FUZZ_FLAGS)" \
	  FUZZ_JOBS=$(FUZZ_JOBS) tests/fuzz/smoke.sh $(or $(FUZZ_ONLY),$(FUZZ_TARGETS))

PREFIX ?= /usr/local
DESTDIR ?=
install: all
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/nvscope
	install -d $(DESTDIR)$(PREFIX)/share/nvscope/presets/plans $(DESTDIR)$(PREFIX)/share/nvscope/themes
	install -m 644 presets/*.ini $(DESTDIR)$(PREFIX)/share/nvscope/presets/
	install -m 644 presets/plans/*.ini $(DESTDIR)$(PREFIX)/share/nvscope/presets/plans/
	install -d $(DESTDIR)$(PREFIX)/share/nvscope/presets/checks
	install -m 644 presets/checks/*.ini $(DESTDIR)$(PREFIX)/share/nvscope/presets/checks/
	install -d $(DESTDIR)$(PREFIX)/share/nvscope/presets/traces
	install -m 644 presets/traces/*.log $(DESTDIR)$(PREFIX)/share/nvscope/presets/traces/
	install -m 644 themes/*.theme $(DESTDIR)$(PREFIX)/share/nvscope/themes/
	install -D -m 644 docs/nvscope.1 $(DESTDIR)$(PREFIX)/share/man/man1/nvscope.1

format:
	clang-format -i $(SRCS) src/main.c $(wildcard src/*/*.h src/*/*/*.h include/*.h tests/unit/*.c)

clean:
	rm -rf build build-asan build-tsan build-fuzz nvscope

-include $(OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TOBJS:.o=.d) $(wildcard $(FUZZ_BUILD)/src/*/*.d $(FUZZ_BUILD)/src/*/*/*.d)
