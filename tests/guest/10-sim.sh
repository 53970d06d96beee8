# shellcheck shell=sh
# The LPS001WP simulator seen from userspace through the real I2C path
# (i2c-dev, I2C_RDWR and the core's SMBus emulation). No driver is bound
# except where a test instantiates a client itself.

plan 83
A=0x5c

load_modules -c none
check_true "adapter lps001wp-sim registered" test -n "$BUS"
check_true "debugfs has 5c/ and 5d/" test -f "$SIM"/5c/regs -a -f "$SIM"/5d/regs

# xfer ARGS...: i2ctransfer with the output on one line
xfer() {
	i2ctransfer -f -y "$BUS" "$@" | tr '\n' ' ' | sed 's/ *$//'
}
get() {
	i2cget -f -y "$BUS" "$1" "$2"
}
set_reg() {
	i2cset -f -y "$BUS" "$1" "$2" "$3"
}
# run_for DR_CTRL1 N: power up with CTRL_REG1 value until the chip has
# taken N more samples (its own clock: a slow guest only stretches the
# wait), power down
run_for() {
	set_reg $A 0x20 "$1"
	field "$SIM/5c/counters" samples
	wait_for 10 counter_reached 5c samples $(( FIELD + $2 ))
	set_reg $A 0x20 0x00
}
abs() {
	if [ "$1" -lt 0 ]; then echo $(( -$1 )); else echo "$1"; fi
}

# ---- identity and addressing ----
check_eq "WHO_AM_I at 0x5c" 0xba "$(get $A 0x0f)"
check_eq "WHO_AM_I at 0x5d" 0xba "$(get 0x5d 0x0f)"
check_eq "WHO_AM_I with auto-increment flag (0x8f)" 0xba "$(get $A 0x8f)"
check_false "0x5e NAKs" i2cget -f -y "$BUS" 0x5e 0x0f
check_eq "reset CTRL_REG1..3" "0x00 0x00 0x00" "$(xfer w1@$A 0xa0 r3)"
check_eq "reserved 0x10 reads 0" 0x00 "$(get $A 0x10)"
set_reg $A 0x10 0x5a
check_eq "reserved 0x10 ignores writes" 0x00 "$(get $A 0x10)"
set_reg $A 0x0f 0x00
check_eq "WHO_AM_I ignores writes" 0xba "$(get $A 0x0f)"

# ---- auto-increment ----
xfer w5@$A 0xb0 0x11 0x22 0x33 0x44 >/dev/null
check_eq "auto-increment write REF_P/THS_P (regs file)" "0x11 0x22 0x33 0x44" \
	"$(regval 5c 0x30) $(regval 5c 0x31) $(regval 5c 0x32) $(regval 5c 0x33)"
check_eq "auto-increment read from 0xb0" "0x11 0x22 0x33 0x44" "$(xfer w1@$A 0xb0 r4)"
check_eq "no auto-increment: same register repeated" "0x11 0x11 0x11" "$(xfer w1@$A 0x30 r3)"
xfer w3@$A 0x32 0x55 0x66 >/dev/null
check_eq "write without bit 7 stays on one register" "0x66 0x44" "$(xfer w1@$A 0xb2 r2)"
echo "0x3f 0x77" > "$SIM"/5c/regs
echo "0x00 0x88" > "$SIM"/5c/regs
check_eq "auto-increment wraps 0x7f -> 0x00" "0x00 0x88" "$(xfer w1@$A 0xff r2)"
check_eq "no wrap at 0x3f" "0x77 0x00" "$(xfer w1@$A 0xbf r2)"
echo "0x00 0x00" > "$SIM"/5c/regs
check_eq "poke of reserved 0x3f shows in regs" 0x77 "$(regval 5c 0x3f)"
xfer w5@$A 0xb0 0 0 0 0 >/dev/null

# ---- sampling ----
echo 0 > "$SIM"/5c/counters
echo "const 16212 1600" > "$SIM"/5c/stimulus
check_eq "stimulus reads back" "const 16212 1600" "$(cat "$SIM"/5c/stimulus)"
check_eq "no data right after PD 0->1 (first sample one period later)" 0x00 \
	"$(xfer w2@$A 0x20 0x74 w1@$A 0x27 r1)"
check_true "12.5 Hz: a sample within 2 s" wait_for 2 counter_reached 5c samples 2
st=$(get $A 0x27)
check_eq "STATUS P_DA set after a period" 2 $(( st & 2 ))
set_reg $A 0x20 0x00
check_eq "P_DA survives power-down" 2 $(( $(get $A 0x27) & 2 ))
check_eq "burst 0xa8 reads P and T (LE)" "0x54 0x3f 0x40 0x06" "$(xfer w1@$A 0xa8 r4)"
check_eq "reading PRESS_OUT_H and TEMP_OUT_H cleared DA and OR" 0x00 "$(get $A 0x27)"
check_eq "PRESS_OUT_L without bit 7 repeats" "0x54 0x54 0x54" "$(xfer w1@$A 0x28 r3)"
check_eq "regs file shows PRESS_OUT_H" 0x3f "$(regval 5c 0x29)"

before=$(counter 5c samples)
# An absence needs its observer: chip 5d, powered at the same DR (00), takes
# 6 samples meanwhile
clocked=no
periods_pass 6 0 && clocked=yes
check_eq "PD = 0: samples counter flat while 5d takes 6 samples" "yes $before" "$clocked $(counter 5c samples)"

# ODR against the simulator's own powered time (robust to a slow guest)
for dr in "0x70 80" "0x50 143"; do
	# shellcheck disable=SC2086 # split "ctrl1 period"
	set -- $dr
	echo 0 > "$SIM"/5c/counters
	run_for "$1" 8
	counters_snapshot 5c
	n=$(counter_in samples)
	ms=$(counter_in powered_ms)
	d=$(abs $(( n - ms / $2 )))
	note "$n samples in $ms ms powered"
	check_true "CTRL_REG1=$1: samples match the powered time at $2 ms a period" test "$d" -le 2 -a "$n" -ge 5
	check_eq "CTRL_REG1=$1: one power-up counted" 1 "$(counter 5c power_ups)"
done

# counter stimulus: values identify the sample number
echo 0 > "$SIM"/5c/counters
echo "counter 1000 -5" > "$SIM"/5c/stimulus
check_eq "counter stimulus reads back" "counter 1000 -5" "$(cat "$SIM"/5c/stimulus)"
run_for 0x74 5
n=$(counter 5c samples)
# shellcheck disable=SC2046 # one positional parameter per byte
set -- $(xfer w1@$A 0xa8 r4)
p=$(( $2 * 256 + $1 )); t=$(( $4 * 256 + $3 ))
[ "$t" -ge 32768 ] && t=$(( t - 65536 ))
check_eq "counter: PRESS_OUT = 1000 + last sample number" $(( 1000 + n - 1 )) "$p"
check_eq "counter: TEMP_OUT = -5 + last sample number" $(( -5 + n - 1 )) "$t"

# DR = 00: temperature every 7th pressure sample (1 Hz)
echo 0 > "$SIM"/5c/counters
echo "counter 0 0" > "$SIM"/5c/stimulus
run_for 0x44 10
n=$(counter 5c samples)
# shellcheck disable=SC2046 # one positional parameter per byte
set -- $(xfer w1@$A 0xaa r2)
t=$(( $2 * 256 + $1 ))
note "$n P samples, TEMP_OUT=$t"
check_true "DR=00: T at 1 Hz, every 7th P sample" test "$n" -ge 7 -a "$t" -eq $(( n / 7 - 1 ))

# ---- DELTA ----
echo "const 16212 1600" > "$SIM"/5c/stimulus
xfer w3@$A 0xb0 0x80 0x3e >/dev/null                  # REF_P = 16000
run_for 0x78 2                                         # PD | DR=11 | DIFF_EN
check_eq "DELTA = REF - P = -212" "0x2c 0xff" "$(xfer w1@$A 0xac r2)"
check_eq "delta_sign default" ref-minus-p "$(cat "$SIM"/5c/delta_sign)"
echo p-minus-ref > "$SIM"/5c/delta_sign
run_for 0x78 2
check_eq "DELTA with p-minus-ref = +212" "0xd4 0x00" "$(xfer w1@$A 0xac r2)"
echo ref-minus-p > "$SIM"/5c/delta_sign
check_eq "bad delta_sign rejected" EINVAL "$(write_errno "$SIM"/5c/delta_sign sideways)"

# ---- variant switches (one file per chip, key=value) ----
variant() {
	tr '\n' ' ' < "$SIM/$1/variant" | sed 's/ $//'
}
defaults="dr01=7 dr10=7 da_clear=out_h bdu=pair drdy=level irq=edge shared=0 first_sample=valid delta=ref-p ths=strict lir=latch int2=present"
check_eq "variant: defaults read back" "$defaults" "$(variant 5c)"
echo "dr01=1 ths=inclusive" > "$SIM"/5c/variant
check_eq "variant: two switches set" "dr01=1 ths=inclusive" \
	"$(grep -E '^(dr01|ths)=' "$SIM"/5c/variant | tr '\n' ' ' | sed 's/ $//')"
check_eq "variant: unknown value refused" EINVAL "$(write_errno "$SIM"/5c/variant 'lir=ignored dr10=9')"
check_eq "variant: unknown key refused" EINVAL "$(write_errno "$SIM"/5c/variant 'colour=blue')"
check_eq "variant: a refused write changes nothing" latch \
	"$(sed -n 's/^lir=//p' "$SIM"/5c/variant)"
check_eq "variant: 5d untouched" "$defaults" "$(variant 5d)"
echo 0 > "$SIM"/5c/counters
run_for 0x50 2
n=$(counter 5c samples); ms=$(counter 5c powered_ms)
note "$n samples in $ms ms powered"
check_true "variant dr01=1: DR=01 samples at 1 Hz over the powered time" \
	test "$(abs $(( n - ms / 1000 )))" -le 1 -a "$n" -ge 1
echo "delta=p-ref" > "$SIM"/5c/variant
check_eq "variant delta=p-ref is delta_sign p-minus-ref" p-minus-ref "$(cat "$SIM"/5c/delta_sign)"
echo default > "$SIM"/5c/variant
check_eq "variant: default restores all" "$defaults" "$(variant 5c)"
all="dr01=1 dr10=12.5 da_clear=status bdu=block drdy=pulse irq=level shared=1 first_sample=garbage delta=p-ref ths=inclusive lir=ignored int2=absent"
check_eq "variant: every alternative in one write" 0 "$(write_errno "$SIM"/5c/variant "$all")"
check_eq "variant: every alternative reads back" "$all" "$(variant 5c)"
echo default > "$SIM"/5c/variant

# ---- regs file has no side effects ----
run_for 0x70 2
cat "$SIM"/5c/regs >/dev/null; cat "$SIM"/5c/regs >/dev/null
check_eq "reading regs leaves P_DA set" 2 $(( $(regval 5c 0x27) & 2 ))
echo "0x27 0x00" > "$SIM"/5c/regs
check_eq "regs poke bypasses read-only STATUS" 0x00 "$(get $A 0x27)"

# ---- counters ----
echo 0 > "$SIM"/5c/counters
echo 0 > "$SIM"/5d/counters
get $A 0x0f >/dev/null; get $A 0x0f >/dev/null; get $A 0x0f >/dev/null
check_eq "counters: 3 transfers" 3 "$(counter 5c transfers)"
check_eq "counters: 6 bytes (SUB + data)" 6 "$(counter 5c bytes)"
check_eq "counters: read_0x0f" 3 "$(counter 5c read_0x0f)"
check_eq "counters: write_0x0f absent" "" "$(counter 5c write_0x0f)"
check_eq "counters: 5d untouched" 0 "$(counter 5d transfers)"

# ---- faults ----
echo "nak 1" > "$SIM"/5c/fault
check_false "fault nak 1: first transfer fails" get $A 0x0f
check_eq "fault nak 1: second succeeds" 0xba "$(get $A 0x0f)"
echo "eio 2" > "$SIM"/5c/fault
check_false "fault eio 2: 1st fails" get $A 0x0f
check_false "fault eio 2: 2nd fails" get $A 0x0f
check_eq "fault eio 2: 3rd succeeds" 0xba "$(get $A 0x0f)"
echo "nak_every 3" > "$SIM"/5c/fault
r=""
for _ in 1 2 3 4 5 6; do
	if get $A 0x0f >/dev/null 2>&1; then r="${r}o"; else r="${r}x"; fi
done
check_eq "fault nak_every 3" ooxoox "$r"
echo clear > "$SIM"/5c/fault
echo "whoami 0x42" > "$SIM"/5c/fault
check_eq "fault whoami" 0x42 "$(get $A 0x0f)"
check_eq "fault whoami leaves regs alone" 0xba "$(regval 5c 0x0f)"
echo "0x27 0x03" > "$SIM"/5c/regs
echo stuck_status > "$SIM"/5c/fault
check_eq "fault stuck_status" 0x00 "$(get $A 0x27)"
check_true "fault file shows settings" grep -q "stuck_status 1" "$SIM"/5c/fault
echo clear > "$SIM"/5c/fault
check_eq "fault clear" "0xba 0x03" "$(get $A 0x0f) $(get $A 0x27)"
check_eq "bad fault command rejected" EINVAL "$(write_errno "$SIM"/5c/fault 'nak x')"
check_eq "bad stimulus rejected" EINVAL "$(write_errno "$SIM"/5c/stimulus 'const 70000 0')"

# ---- client instantiation ----
check_eq "new_device bad address" EINVAL "$(write_errno "$SIM"/new_device 0x50)"
check_eq "new_device bad option" EINVAL "$(write_errno "$SIM"/new_device '0x5c irq=both')"
check_eq "new_device 0x5c irq=falling open-drain" 0 \
	"$(write_errno "$SIM"/new_device '0x5c irq=falling open-drain')"
dev=/sys/bus/i2c/devices/$BUS-005c
check_eq "client named lps001wp" lps001wp "$(cat "$dev"/name 2>&1)"
check_eq "second new_device at 0x5c busy" EBUSY "$(write_errno "$SIM"/new_device 0x5c)"
check_eq "delete_device 0x5c" 0 "$(write_errno "$SIM"/delete_device 0x5c)"
check_false "client gone" test -e "$dev"
check_eq "delete_device again" ENODEV "$(write_errno "$SIM"/delete_device 0x5c)"
check_eq "new_device 0x5d (left for rmmod)" 0 "$(write_errno "$SIM"/new_device '0x5d irq=rising')"

# ---- unload with a client present and a chip running ----
set_reg 0x5d 0x20 0x70
check_true "rmmod lps001wp_sim with a client present" rmmod lps001wp_sim
check_false "adapter gone" i2c_bus_of lps001wp-sim
check_false "debugfs gone" test -e "$SIM"
