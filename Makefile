# ember — see README.md. `make` builds every program into $(OUT)/bin.
include config.mk

# Folders' build.mk files may hold rules of their own: `make` alone still means all.
.DEFAULT_GOAL := all

MUSL_INC = $(OUT)/musl-include
OBJ_MUSL = $(OUT)/obj/musl
OBJ_SYS  = $(OUT)/obj/sys
# the unit tests under ASan+UBSan, and the fuzz harnesses
OBJ_SAN  = $(OUT)/obj/san
OBJ_FUZZ = $(OUT)/obj/fuzz
BIN      = $(OUT)/bin

# libember: code shared by two or more programs, built once per toolchain.
LIB_SRC = $(wildcard lib/*.c)
CGROUP_SRC = $(wildcard cgroup/*.c)

PROGS =
MANPAGES =
# Each program folder describes itself in build.mk: it appends to PROGS and calls
# musl_prog (libc only) or lib_prog (third-party libraries via pkg-config).
#   $(eval $(call musl_prog,NAME,SOURCES))
#   $(eval $(call lib_prog,NAME,SOURCES,PKG-CONFIG MODULES,EXTRA LIBS))
define musl_prog
PROGS += $(BIN)/$(1)
$(BIN)/$(1): $(patsubst %.c,$(OBJ_MUSL)/%.o,$(2)) $(OUT)/libember-musl.a | $(BIN)
	@SYSROOT= CC="$$(MUSL_CC)" LIB_STATIC=1 scripts/link-lib.sh $$@ "" "" $$(LDFLAGS) $(STRIP) $$^
endef

# A library-backed program whose pkg-config modules are missing (a fresh machine before
# `make deps`) is left out, and one line below says so (scripts/pkg-cflags.sh --missing).
define lib_prog
ifneq ($$(strip $$(shell scripts/pkg-cflags.sh --missing "$(3)" "$$(SYSROOT)" "$$(PKG_CONFIG)")),)
LIBS_SKIPPED += $(1)
LIBS_MISSING += $$(shell scripts/pkg-cflags.sh --missing "$(3)" "$$(SYSROOT)" "$$(PKG_CONFIG)")
else
PROGS += $(BIN)/$(1)
$(BIN)/$(1): $(patsubst %.c,$(OBJ_SYS)/%.o,$(2)) $(OUT)/libember-sys.a | $(BIN)
	@CC="$$(LIB_CC)" PKG_CONFIG="$$(PKG_CONFIG)" SYSROOT="$$(SYSROOT)" LIB_STATIC="$$(LIB_STATIC)" \
	 PKG_CONFIG_LIBDIR_SYSROOT="$$(PKG_CONFIG_LIBDIR_SYSROOT)" \
	 scripts/link-lib.sh $$@ "$(3)" "$(4)" $$(LDFLAGS) $(STRIP) $$^
$(patsubst %.c,$(OBJ_SYS)/%.o,$(2)): SYS_PKG_CFLAGS := $$(shell scripts/pkg-cflags.sh "$(3)" "$$(SYSROOT)" "$$(PKG_CONFIG)")
endif
endef

include $(wildcard */build.mk)

# One line, not pkg-config's errors per file. A static or package build (SYSROOT or
# LIB_STATIC) must have every program: there it is an error.
ifneq ($(LIBS_SKIPPED),)
LIBS_MESSAGE = libraries not found by $(PKG_CONFIG): $(sort $(LIBS_MISSING))
LIBS_HOWTO = install them with `make deps` (scripts/deps.sh; see README.md)
ifneq ($(SYSROOT)$(LIB_STATIC),)
$(error $(LIBS_MESSAGE) (needed by $(LIBS_SKIPPED)); $(LIBS_HOWTO))
else
$(info ember: $(LIBS_MESSAGE); skipping $(LIBS_SKIPPED); $(LIBS_HOWTO))
endif
endif

all: $(PROGS)

$(BIN):
	@mkdir -p $@

# The build's warning flags, for tests/integration/test-glibc-compile.sh
print-warn-flags:
	@echo '$(CSTD) $(WARN)'

# musl-gcc does not see the kernel's uapi headers: give it private copies (never
# -isystem /usr/include, which would let glibc's headers win).
$(MUSL_INC)/.stamp:
	@mkdir -p $(MUSL_INC)
	scripts/musl-include.sh $(MUSL_INC)
	@touch $@

# Each object folder remembers the compiler its objects came from: after a change (a first
# `make` before `make deps`, when cc stood in for the missing musl-gcc) they are built
# again, not linked into a musl program.
cc_stamp = $(shell mkdir -p $(1) && { [ "$$(cat $(1)/.cc 2>/dev/null)" = "$(2)" ] || \
	echo "$(2)" >$(1)/.cc; } && echo $(1)/.cc)
MUSL_CC_STAMP := $(call cc_stamp,$(OBJ_MUSL),$(MUSL_CC))
SYS_CC_STAMP := $(call cc_stamp,$(OBJ_SYS),$(LIB_CC) $(SYSROOT))

$(OBJ_MUSL)/%.o: %.c $(MUSL_INC)/.stamp $(MUSL_CC_STAMP)
	@mkdir -p $(@D)
	@echo "  CC (musl) $<"
	@$(MUSL_CC) $(CPPFLAGS) -I. -Ilib -Icgroup -isystem $(MUSL_INC) $(CFLAGS) -MMD -MP -c -o $@ $<

# Against a sysroot, the library-backed programs see its headers and the same kernel uapi
# headers the libc-only ones get (pkg-config drops -I/usr/include as a system folder, and
# musl-gcc looks in neither).
SYS_INC = $(if $(SYSROOT),--sysroot=$(SYSROOT) -isystem $(SYSROOT)/usr/include -isystem $(MUSL_INC))

$(OBJ_SYS)/%.o: %.c $(if $(SYSROOT),$(MUSL_INC)/.stamp) $(SYS_CC_STAMP)
	@mkdir -p $(@D)
	@echo "  CC (sys)  $<"
	@$(LIB_CC) $(CPPFLAGS) -I. -Ilib -Icgroup $(SYS_PKG_CFLAGS) $(CFLAGS) $(SYS_INC) -MMD -MP -c -o $@ $<

$(OUT)/libember-musl.a: $(patsubst %.c,$(OBJ_MUSL)/%.o,$(LIB_SRC) $(CGROUP_SRC))
	@rm -f $@
	@ar rcs $@ $^

$(OUT)/libember-sys.a: $(patsubst %.c,$(OBJ_SYS)/%.o,$(LIB_SRC) $(CGROUP_SRC))
	@rm -f $@
	@ar rcs $@ $^

-include $(shell find $(OUT)/obj -name '*.d' 2>/dev/null)

.SECONDEXPANSION:

# ---- tests -------------------------------------------------------------------------------
# `make check` installs what it needs, builds, and runs every suite (see tests/README.md).
deps:
	@scripts/deps.sh

check: deps
	$(MAKE) -j$(JOBS) all unit-tests fuzz-build
	$(MAKE) -j$(JOBS) static
	@scripts/rootfs.sh >/dev/null # the Debian disk's root file system, cached (docs/distro.md)
	tests/run $(SUITES)

# Every program static against musl, into $(STATIC_OUT)/bin: the musl sysroot is built
# first when this machine has none (scripts/sysroot.sh, ~15 min once, then cached).
static:
	@sysroot=$$(scripts/sysroot.sh | tail -n 1) && \
	 $(MAKE) OUT=$(STATIC_OUT) SYSROOT="$$sysroot" LIB_CC="$(MUSL_CC)" all

UNIT_SRC = $(wildcard tests/unit/test-*.c)
UNIT_BIN = $(patsubst tests/unit/%.c,$(OUT)/tests/musl/%,$(UNIT_SRC)) \
           $(patsubst tests/unit/%.c,$(OUT)/tests/san/%,$(UNIT_SRC))
HELPER_BIN = $(patsubst tests/helpers/%.c,$(OUT)/tests/helpers/%,$(wildcard tests/helpers/*.c))
unit-tests: $(UNIT_BIN) $(HELPER_BIN)

# Small programs the integration tests drive (static musl, like the code they exercise).
$(OUT)/tests/helpers/%: tests/helpers/%.c $(OUT)/libember-musl.a $(MUSL_INC)/.stamp
	@mkdir -p $(@D)
	@echo "  HELPER $@"
	@$(MUSL_CC) $(CPPFLAGS) -Ilib -Icgroup -isystem $(MUSL_INC) $(CFLAGS) -static -o $@ $< $(OUT)/libember-musl.a

# A unit test links the sources it names on its `// sources:` line, and sees their
# folders' headers.
unit_sources = $(shell sed -n 's|^// sources: *||p' $(1))
unit_includes = -I. $(addprefix -I,$(sort $(dir $(call unit_sources,$(1)))))

# The sources are compiled once per toolchain into objects (with their header
# dependencies), not again for every test: that was most of a CI run's build time.
unit_objects = $(patsubst %.c,$(2)/%.o,$(call unit_sources,$(1)))
# Kept between runs (make would delete them as intermediate files).
.PRECIOUS: $(OBJ_MUSL)/%.o $(OBJ_SAN)/%.o $(OBJ_FUZZ)/%.o

$(OUT)/tests/musl/%: tests/unit/%.c tests/unit/harness.h $$(call unit_objects,tests/unit/$$*.c,$(OBJ_MUSL)) $(OUT)/libember-musl.a $(MUSL_INC)/.stamp
	@mkdir -p $(@D)
	@echo "  TEST (musl) $@"
	@$(MUSL_CC) $(CPPFLAGS) -Ilib -Icgroup -Itests/unit $(call unit_includes,$<) -isystem $(MUSL_INC) $(CFLAGS) -static -o $@ $< $(call unit_objects,$<,$(OBJ_MUSL)) $(OUT)/libember-musl.a

$(OBJ_SAN)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC (asan) $<"
	@$(SAN_CC) $(CPPFLAGS) -I. -Ilib -Icgroup $(SAN_CFLAGS) -MMD -MP -c -o $@ $<

$(OUT)/libember-san.a: $(patsubst %.c,$(OBJ_SAN)/%.o,$(LIB_SRC) $(CGROUP_SRC))
	@rm -f $@
	@ar rcs $@ $^

$(OUT)/tests/san/%: tests/unit/%.c tests/unit/harness.h $$(call unit_objects,tests/unit/$$*.c,$(OBJ_SAN)) $(OUT)/libember-san.a
	@mkdir -p $(@D)
	@echo "  TEST (asan) $@"
	@$(SAN_CC) $(CPPFLAGS) -Ilib -Icgroup -Itests/unit $(call unit_includes,$<) $(SAN_CFLAGS) -o $@ $< $(call unit_objects,$<,$(OBJ_SAN)) $(OUT)/libember-san.a

# ---- fuzzing (tests/fuzz/README.md) -------------------------------------------------------
# libFuzzer harnesses, one per parser of untrusted input, built with clang and ASan+UBSan.
# `make check` runs each briefly (tests/integration/test-fuzz-parsers.sh); `make fuzz`
# runs each for FUZZ_SECONDS.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 300
FUZZ_CFLAGS = -std=c11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
FUZZ_BIN = $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(wildcard tests/fuzz/fuzz-*.c))
fuzz-build: $(FUZZ_BIN)
$(OBJ_FUZZ)/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC (fuzz) $<"
	@$(FUZZ_CC) $(CPPFLAGS) -I. -Ilib -Icgroup $(FUZZ_CFLAGS:-fsanitize=fuzzer,%=-fsanitize=fuzzer-no-link,%) -MMD -MP -c -o $@ $<

$(OUT)/libember-fuzz.a: $(patsubst %.c,$(OBJ_FUZZ)/%.o,$(LIB_SRC) $(CGROUP_SRC))
	@rm -f $@
	@ar rcs $@ $^

$(OUT)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $$(call unit_objects,tests/fuzz/$$*.c,$(OBJ_FUZZ)) $(OUT)/libember-fuzz.a
	@mkdir -p $(@D)
	@echo "  FUZZ $@"
	@$(FUZZ_CC) $(CPPFLAGS) -Ilib -Icgroup -Itests/fuzz $(call unit_includes,$<) $(FUZZ_CFLAGS) -o $@ $< $(call unit_objects,$<,$(OBJ_FUZZ)) $(OUT)/libember-fuzz.a
fuzz: deps fuzz-build
	tests/fuzz/run $(FUZZ_SECONDS)

# ---- the QEMU image ------------------------------------------------------------------------
# The static set when this machine has the musl sysroot, else the default build.
run: deps
	@if scripts/sysroot.sh --check 2>/dev/null; then $(MAKE) static && EMBER_BIN=$(CURDIR)/$(STATIC_OUT)/bin scripts/run-qemu.sh; \
	 else $(MAKE) all && scripts/run-qemu.sh; fi

image: all
	scripts/mkinitramfs.sh $(OUT)/ember.cpio

bench: deps
	$(MAKE) all
	bench/run

# ---- install -------------------------------------------------------------------------------
man: $(patsubst man/%.scd,$(OUT)/man/%,$(wildcard man/*.scd))
$(OUT)/man/%: man/%.scd
	@mkdir -p $(@D)
	scdoc < $< > $@

install: all man
	INITDIR="$(INITDIR)" scripts/install.sh "$(DESTDIR)" "$(PREFIX)" "$(SYSCONFDIR)" "$(BIN)" "$(OUT)/man"

# On Debian, after install: the hooks and enablement that make Debian's tools and
# packages work with ember-init as PID 1 (distro/debian/README.md).
install-debian: install
	distro/debian/install.sh "$(DESTDIR)/" "$(BIN)/emberctl"

clean:
	rm -rf $(OUT) $(STATIC_OUT)

.PHONY: print-warn-flags all deps check static unit-tests fuzz fuzz-build run image bench man install install-debian clean
.DELETE_ON_ERROR:

# ---- a real distribution (distro/debian/README.md) --------------------------------------
INIT = ember
run-distro: deps
	$(MAKE) all
	scripts/distro-image.sh $(OUT)/distro
	scripts/run-distro.sh $(OUT)/distro $(INIT)

.PHONY: run-distro
