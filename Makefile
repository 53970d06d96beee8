# SPDX-License-Identifier: GPL-2.0
#
#   make                 build lps001wp.ko for the running kernel
#   make KDIR=<dir>      build against another kernel tree or headers
#   make install         modules_install + depmod (INSTALL_MOD_PATH= for a staging root)
#   make check           every test (sets itself up on Debian 12 or 13; needs root)
#   make check-suite SUITES=30-channels[,...] [KERNEL=6.1]
#                        the inner loop: one test kernel, those guest suites
#   make demo            boot the simulated board in QEMU and show live readings
#                        (Debian 12 or 13 on x86_64, root; tests/deps.sh demo)
#   make lint            the quality gates (part of make check)
#   make bench           this driver vs mainline st_pressure on the simulated chip (numbers, no verdict)
#   make hwcheck [BUS=1] [ADDR=0x5c]
#                        on a board with the chip: measure the facts the
#                        driver assumes and print a report (root)
#   make dtbo            the Raspberry Pi overlay, lps001wp.dtbo (dtc -@)
#   make install-dtbo    copy it to /boot/firmware/overlays or /boot/overlays,
#                        whichever exists (DESTDIR= for a staging root)

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build

.PHONY: all modules clean install modules_install check check-suite demo lint bench hwcheck

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_install:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

install: modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KERNELRELEASE)

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

# make check-suite SUITES=30-channels,60-events [KERNEL=6.1]: the inner loop
check-suite:
	SUITES=$(SUITES) KERNEL=$(KERNEL) bash tests/check.sh --suite

# The Raspberry Pi overlay. The pin node carries the sensor's unit address
# without a reg (so two instances get two pin nodes), hence no
# unit_address_vs_reg warning, as in the Pi's own overlay builds.
.PHONY: dtbo install-dtbo
OVERLAY_DTS := Documentation/devicetree/overlays/lps001wp-overlay.dts

dtbo: lps001wp.dtbo

lps001wp.dtbo: $(OVERLAY_DTS)
	dtc -@ -Wno-unit_address_vs_reg -I dts -O dtb -o $@ $<

# Bookworm and later keep the overlays in /boot/firmware, older releases in /boot.
install-dtbo: lps001wp.dtbo
	@dir=$(DESTDIR)/boot/firmware/overlays; \
	[ -d "$$dir" ] || dir=$(DESTDIR)/boot/overlays; \
	if [ ! -d "$$dir" ]; then \
		echo "install-dtbo: neither $(DESTDIR)/boot/firmware/overlays nor $(DESTDIR)/boot/overlays exists (not a Raspberry Pi OS system?)" >&2; \
		exit 1; \
	fi; \
	echo "install -m 644 lps001wp.dtbo $$dir/"; \
	install -m 644 lps001wp.dtbo "$$dir/"
