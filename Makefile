# SPDX-License-Identifier: GPL-2.0
#
#   make                 build lps001wp.ko for the running kernel
#   make KDIR=<dir>      build against another kernel tree or headers
#   make install         modules_install + depmod (INSTALL_MOD_PATH= for a staging root)
#   make uninstall       remove what make install put there + depmod
#   make deb             build/lps001wp-dkms_<version>_all.deb (DEB_DIR= elsewhere;
#                        needs debhelper and dh-dkms)
#   make dkms-install    DKMS from this clone: stage the sources in
#                        /usr/src/lps001wp-<version>, build for every kernel with headers
#   make dkms-uninstall  remove what dkms-install added, every version
#   make check           every test (sets itself up on Debian 12; needs root)
#   make demo            boot the simulated board in QEMU and show live readings
#   make lint            the quality gates (part of make check)
#   make bench           this driver vs mainline st_pressure on the simulated chip (numbers, no verdict)
#   make hwcheck [BUS=1] [ADDR=0x5c]
#                        on a board with the chip: measure the facts the
#                        driver assumes and print a report (root)
#
# One install method at a time: make install (extra/ or updates/) or DKMS
# (the package or dkms-install; updates/dkms/). Each refuses or warns while
# the other is there.

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
DEB_DIR ?= $(CURDIR)/build
# MODULE_VERSION, see Kbuild
ifeq ($(origin LPS001WP_VERSION),undefined)
LPS001WP_VERSION := $(shell sh $(CURDIR)/tools/version.sh $(CURDIR))
endif
moddir := $(INSTALL_MOD_PATH)/lib/modules/$(KERNELRELEASE)

.PHONY: all modules clean install uninstall modules_install deb dkms-install dkms-uninstall \
	check demo lint bench hwcheck

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LPS001WP_VERSION=$(LPS001WP_VERSION) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) LPS001WP_VERSION=$(LPS001WP_VERSION) modules_install

install:
	@if ls $(moddir)/updates/dkms/lps001wp.ko* >/dev/null 2>&1; then \
		echo "DKMS installs lps001wp for $(KERNELRELEASE) already (dkms status lps001wp):" \
			"use one method, see README.md" >&2; \
		exit 1; \
	fi
	$(MAKE) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KERNELRELEASE)

# Where modules_install puts it: extra/ before 6.2, updates/ from 6.2;
# never DKMS's updates/dkms/.
uninstall:
	rm -f $(moddir)/extra/lps001wp.ko* $(moddir)/updates/lps001wp.ko*
	rmdir $(moddir)/extra $(moddir)/updates 2>/dev/null || true
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KERNELRELEASE)

deb:
	LPS001WP_VERSION=$(LPS001WP_VERSION) sh tools/mkdeb.sh $(DEB_DIR)

dkms-install:
	LPS001WP_VERSION=$(LPS001WP_VERSION) sh tools/lps001wp-dkms.sh install

dkms-uninstall:
	sh tools/lps001wp-dkms.sh uninstall

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

check:
	bash tests/check.sh

demo:
	bash tests/demo.sh

lint:
	bash tests/lint.sh

bench:
	bash tests/bench.sh

hwcheck:
	sh tools/lps001wp-hwcheck.sh $(if $(BUS),-b $(BUS)) $(if $(ADDR),-a $(ADDR)) $(HWCHECK_FLAGS)
