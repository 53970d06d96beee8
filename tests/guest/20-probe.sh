# shellcheck shell=sh
# Probe, identity, initial register state, unbind/rebind and module unload
# of the lps001wp driver on the simulator's adapter.

plan 35
A=0x5c

load_modules -c
DEV=$BUS-005c
DRV=/sys/bus/i2c/drivers/lps001wp

# ---- a good chip ----
echo 0 > "$SIM"/5c/counters
new_client
check_true "driver bound to the client at 0x5c" test -e $DRV/"$DEV"
check_true "IIO device named lps001wp" test -n "$D"
check_eq "WHO_AM_I read once" 1 "$(counter 5c read_0x0f)"
check_eq "CTRL_REG1 after probe: BDU, DR=11 (12.5 Hz), PD=0, LPOW=0" 0x34 "$(regval 5c 0x20)"
check_eq "CTRL_REG3 after probe: INT1/INT2 unused" 0x00 "$(regval 5c 0x22)"
check_eq "INT_CFG after probe: LIR only" 0x04 "$(regval 5c 0x34)"
check_eq "REF_P and THS_P cleared" "0x00 0x00 0x00 0x00" \
	"$(regval 5c 0x30) $(regval 5c 0x31) $(regval 5c 0x32) $(regval 5c 0x33)"
check_eq "left powered down: no power-up during probe" 0 "$(counter 5c power_ups)"
# own_trigger: a trigger of this device's, by its name lps001wp-devN or, named
# otherwise, by its parent (the client): a misnamed one is still the driver's
own_trigger() {
	iio_trigger "lps001wp-dev${D##*iio:device}" && return 0
	for ot_t in "$D"/../trigger*; do
		[ -e "$ot_t" ] && return 0
	done
	return 1
}
check_false "no own trigger without an IRQ" own_trigger
check_false "no event attributes without an IRQ" test -e "$D/events/in_pressure1_thresh_rising_en"
check_true "buffer support present" test -d "$D/buffer"

# ---- debugfs register access: real registers only ----
DBG=/sys/kernel/debug/iio/${D##*/}/direct_reg_access
echo 0x0f > "$DBG"
check_eq "debugfs reads WHO_AM_I" 0xBA "$(cat "$DBG")"
echo 0x10 > "$DBG"
check_false "debugfs: reading reserved 0x10 fails" cat "$DBG"
echo 0x37 > "$DBG"
check_false "debugfs: reading reserved 0x37 fails" cat "$DBG"
check_false "debugfs: writing read-only STATUS fails" sh -c "echo '0x27 0x01' > $DBG"
check_eq "debugfs write THS_P_L" 0 "$(write_errno "$DBG" "0x32 0x5a")"
check_eq "debugfs write reached the chip" 0x5a "$(regval 5c 0x32)"
echo "0x32 0x00" > "$DBG"

# ---- unbind within the autosuspend delay powers the chip down ----
hold_on
cat "$D/in_pressure_raw" > /dev/null
check_eq "a read powered the chip up (PD, with DIFF_EN)" 0x7c "$(regval 5c 0x20)"
echo "$DEV" > $DRV/unbind
check_false "unbound: IIO device gone" iio_dev lps001wp
check_eq "unbind while active leaves PD=0" 0 $(( $(regval 5c 0x20) & 0x40 ))
echo "$DEV" > $DRV/bind
check_true "rebind" test -e $DRV/"$DEV"
D=$(iio_dev lps001wp)
echo "const 17000 1280" > "$SIM"/5c/stimulus
check_eq "rebound device reads the stimulus" "17000 1280" \
	"$(read_errno "$D/in_pressure_raw") $(read_errno "$D/in_temp_raw")"
echo $A > "$SIM"/delete_device

# ---- wrong WHO_AM_I ----
echo "whoami 0xbb" > "$SIM"/5c/fault
dmesg -c > /dev/null
echo $A > "$SIM"/new_device
check_false "WHO_AM_I 0xbb: not bound" test -e $DRV/"$DEV"
msg=$(dmesg | grep "$DEV")
check_true "dmesg names the expected value 0xba" sh -c "echo '$msg' | grep -q 'expected 0xba'"
check_true "dmesg names the value 0xbb" sh -c "echo '$msg' | grep -q 0xbb"
check_false "no IIO device" iio_dev lps001wp
echo $A > "$SIM"/delete_device

echo "whoami 0x42" > "$SIM"/5c/fault
dmesg -c > /dev/null
echo $A > "$SIM"/new_device
check_false "WHO_AM_I 0x42: not bound" test -e $DRV/"$DEV"
check_true "dmesg names 0x42" sh -c "dmesg | grep '$DEV' | grep -q 'WHO_AM_I 0x42, expected 0xba'"
echo $A > "$SIM"/delete_device
echo clear > "$SIM"/5c/fault

# ---- two chips ----
echo $A > "$SIM"/new_device
echo 0x5d > "$SIM"/new_device
n=0
for d in /sys/bus/iio/devices/iio:device*; do
	[ "$(cat "$d/name")" = lps001wp ] && n=$((n + 1))
done
check_eq "two chips, two IIO devices" 2 "$n"

# ---- unload with devices bound ----
# Both chips powered by a read and held so: the unload must power them
# down. 0x5d is held by a long autosuspend delay, which the unload's
# pm_runtime_dont_use_autosuspend() ends with a runtime suspend. On 0x5c
# user space forbids runtime PM (control "on"), so no runtime suspend
# comes: its power-down is the driver's own.
for d in /sys/bus/iio/devices/iio:device*; do
	[ "$(cat "$d/name")" = lps001wp ] || continue
	case $(readlink -f "$d/..") in
	*-005c) echo on > "$d/../power/control" ;;
	*) echo 60000 > "$d/../power/autosuspend_delay_ms" ;;
	esac
	cat "$d/in_pressure_raw" > /dev/null
done
pd_before="$(( $(regval 5c 0x20) & 0x40 )) $(( $(regval 5d 0x20) & 0x40 ))"
check_true "rmmod lps001wp with two devices bound" rmmod lps001wp
check_false "no lps001wp IIO device after rmmod" iio_dev lps001wp
check_eq "chips powered up by a read, left powered down by the unload" "64 64, 0 0" \
	"$pd_before, $(( $(regval 5c 0x20) & 0x40 )) $(( $(regval 5d 0x20) & 0x40 ))"
echo $A > "$SIM"/delete_device
echo 0x5d > "$SIM"/delete_device
check_true "rmmod lps001wp_sim" rmmod lps001wp_sim
