# nvscope - build, test and set-up.  `make run` and `make check` do all set-up
# on a fresh Debian 12 machine (they call `make deps`, which apt-installs what is
# missing).
VERSION   := 0.1.0
CC        ?= cc
PKGS      := ncursesw libnvme liburing libcjson inih blkid
DEB_BUILD := build-essential pkg-config libncurses-dev libnvme-dev liburing-dev \
             check libcjson-dev libinih-dev libblkid-dev
DEB_TEST  := tmux util-linux e2fsprogs dosfstools fio python3 python3-six python3-pandas chromium \
             python3-fusepy zstd blktrace
DEB_VM    := qemu-system-x86 busybox-static cpio kmod xz-utils file

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CHECK_LIBS := $(shell pkg-config --libs check 2>/dev/null)

BUILD   ?= build
OPT     ?= -O2 -g
SAN     ?=
NVS_CFLAGS := $(OPT) $(SAN) -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
           -DNVS_VERSION='"$(VERSION)"' -Iinclude -Isrc $(PKG_CFLAGS) $(CFLAGS)
NVS_LDFLAGS := $(SAN) $(LDFLAGS)
LDLIBS  += $(PKG_LIBS) -pthread -lm

SRCS     := $(sort $(wildcard src/*/*.c))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/main.o
TSRCS    := $(sort $(wildcard tests/unit/test_*.c))
TOBJS    := $(TSRCS:%.c=$(BUILD)/%.o)

.PHONY: all deps deps-test deps-vm run check check-unit check-vm asan tsan \
        bench clean format install
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
	@$(MAKE) --no-print-directory all $(BUILD)/unit-tests
	@NVS_BUILD=$(BUILD) NVS_BIN=./$(BIN) tests/run.sh

check-unit: all $(BUILD)/unit-tests
	@CK_FORK=yes $(BUILD)/unit-tests

check-vm: deps-vm
	@$(MAKE) --no-print-directory all
	@NVS_BIN=./$(BIN) tests/vm/run.sh

asan:
	@$(MAKE) --no-print-directory deps-test
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/nvscope \
	  OPT="-O1 -g" SAN="-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  all build-asan/unit-tests
	@LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp NVS_BUILD=build-asan NVS_BIN=build-asan/nvscope NVS_SANITIZER=asan tests/run.sh

tsan:
	@$(MAKE) --no-print-directory deps-test
	@$(MAKE) --no-print-directory BUILD=build-tsan BIN=build-tsan/nvscope \
	  OPT="-O1 -g" SAN="-fsanitize=thread" all build-tsan/unit-tests
	@NVS_BUILD=build-tsan NVS_BIN=build-tsan/nvscope NVS_SANITIZER=tsan tests/run.sh

bench: all
	bench/vs-fio.sh

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
	clang-format -i $(SRCS) src/main.c $(wildcard src/*/*.h include/*.h tests/unit/*.c)

clean:
	rm -rf build build-asan build-tsan nvscope

-include $(OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TOBJS:.o=.d)
