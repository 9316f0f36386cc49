# ember build configuration. Edit here or override on the make command line.

VERSION = 0.1.0

# Install paths
PREFIX     = /usr
BINDIR     = $(PREFIX)/bin
SBINDIR    = $(PREFIX)/sbin
# Where ember-init goes: /sbin, where kernels look for an init. Systems with a merged
# /usr (postmarketOS, Alpine's APKBUILD) set INITDIR=/usr/sbin; /sbin is a link there.
INITDIR    = /sbin
LIBEXECDIR = $(PREFIX)/libexec/ember
MANDIR     = $(PREFIX)/share/man
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
SYSCONFDIR = /etc
DESTDIR    =

# Build output (ignored by git)
OUT = out

# Programs that link only libc: static against musl. musl-gcc on Debian; on Alpine the
# system cc already targets musl.
MUSL_CC = $(shell command -v musl-gcc 2>/dev/null || echo cc)

# Programs backed by third-party libraries (libcap, libmnl, libnftnl, tss2, libxcrypt).
# Default: the system compiler and libraries (Debian: glibc; static where every .a exists,
# else dynamic). Fully static against musl (docs/build.md):
#   make static            builds the musl sysroot once (scripts/sysroot.sh, cached in
#                          ~/.cache/ember) and every program into $(STATIC_OUT)/bin
#   make SYSROOT=DIR LIB_CC=musl-gcc   the same by hand against any musl sysroot holding
#                          static libraries (its pkg-config files under usr/lib/pkgconfig)
#   make LIB_STATIC=1      Alpine: the system cc and the *-static packages
# With SYSROOT or LIB_STATIC=1 a program that does not come out static musl fails to link.
SYSROOT =
LIB_CC  = cc
LIB_STATIC =
PKG_CONFIG = pkg-config
PKG_CONFIG_LIBDIR_SYSROOT = $(SYSROOT)/usr/lib/pkgconfig:$(SYSROOT)/usr/share/pkgconfig
STATIC_OUT = out-static

# Flags
CSTD     = -std=c11
# Packagers set WERROR= (a newer compiler's new warning must not break a package build)
# and add their flags with EXTRA_CFLAGS / EXTRA_LDFLAGS.
WERROR   = -Werror
WARN     = -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
CPPFLAGS = -D_GNU_SOURCE -DEMBER_VERSION=\"$(VERSION)\"
EXTRA_CFLAGS  =
EXTRA_LDFLAGS =
# Every function and object in its own section, and the linker drops the unused ones.
CFLAGS   = $(CSTD) $(WARN) -Os -g -fno-common -ffunction-sections -fdata-sections $(EXTRA_CFLAGS)
LDFLAGS  = -Wl,--gc-sections $(EXTRA_LDFLAGS)
STRIP    = -s

# Parallel build jobs in `make check` (its builds are most of a CI run's time otherwise)
JOBS = $(shell nproc 2>/dev/null || echo 2)

# Unit tests under sanitizers (glibc toolchain; musl has no sanitizer runtime)
SAN_CC     = cc
SAN_CFLAGS = -std=c11 -Wall -Wextra -Werror -Wno-unused-parameter -O1 -g \
             -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

# Feature switches (1 = build)
WITH_NETNAT       = 1
WITH_BOOT_MEASURE = 1
WITH_EMPOWER      = 1
WITH_MODLOAD      = 1

# QEMU
QEMU       = qemu-system-x86_64
QEMU_ACCEL = tcg
QEMU_MEM   = 512M
QEMU_SMP   = 2
