# SPDX-License-Identifier: GPL-2.0
# The naming rule of tests/guest/lib/lib.sh, for the lint gate `helpers`:
# busybox sh has no local variables, so a variable a helper assigns is
# either its own, named with the function's initials and an underscore
# (wait_for: wf_n), or one it sets for its caller, in capitals and named in
# the comment block above the function. Anything else would clobber a
# suite's variable of that name. Prints one line per offending assignment:
#   lib.sh:LINE: FUNCTION assigns NAME: WHY
# Assignments are found where a statement starts (after ; && || | ( { $(
# and the shell's keywords), in `for NAME in` and in `read NAME...`;
# quoted text is skipped, so awk programs and echoed words do not count.

function initials(name,    parts, k, i, s) {
	k = split(name, parts, "_")
	s = ""
	for (i = 1; i <= k; i++)
		s = s substr(parts[i], 1, 1)
	return s "_"
}

function judge(v) {
	if (v == "_" || v == "")
		return
	if (v ~ /^[a-z]/) {
		if (index(v, prefix) != 1)
			printf "lib.sh:%d: %s assigns %s: not prefixed %s\n", NR, fn, v, prefix
	} else if (v ~ /^[A-Z]/) {
		if (header !~ ("(^|[^A-Za-z0-9_])" v "([^A-Za-z0-9_]|$)"))
			printf "lib.sh:%d: %s assigns %s: not named in its header comment\n", NR, fn, v
	} else {
		printf "lib.sh:%d: %s assigns %s: neither its own (%s) nor a capital\n", NR, fn, v, prefix
	}
}

# One statement's text: its leading assignments, or a for or read
function statement(s,    w, n, i, v) {
	sub(/^[ \t]+/, "", s)
	while (match(s, /^(if|then|else|elif|do|while|until|!|})[ \t]+/))
		s = substr(s, RLENGTH + 1)
	if (match(s, /^for[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
		v = substr(s, 1, RLENGTH)
		sub(/^for[ \t]+/, "", v)
		judge(v)
		return
	}
	if (s ~ /^read([ \t]|$)/) {
		n = split(s, w, /[ \t]+/)
		for (i = 2; i <= n; i++) {
			if (w[i] ~ /^-[rs]$/)
				continue
			if (w[i] ~ /^-[tpnud]$/) {
				i++
				continue
			}
			if (w[i] !~ /^[A-Za-z_][A-Za-z0-9_]*$/)
				break
			judge(w[i])
		}
		return
	}
	while (match(s, /^[A-Za-z_][A-Za-z0-9_]*=/)) {
		judge(substr(s, 1, RLENGTH - 1))
		s = substr(s, RLENGTH + 1)
		# the value: up to white space outside $(( ))
		if (!match(s, /^[^ \t]*[ \t]+/))
			return
		s = substr(s, RLENGTH + 1)
	}
}

# A line without its quoted text (a single-quoted text may span lines)
function unquote(line,    out, c, i) {
	out = ""
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		if (insq) {
			if (c == "'")
				insq = 0
			continue
		}
		if (indq) {
			if (c == "\\") {
				i++
				continue
			}
			if (c == "\"")
				indq = 0
			continue
		}
		if (c == "'") {
			insq = 1
			continue
		}
		if (c == "\"") {
			indq = 1
			out = out "\"\""
			continue
		}
		if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[ \t]/))
			break
		out = out c
	}
	indq = 0
	return out
}

/^[A-Za-z_][A-Za-z0-9_]*\(\)[ \t]*\{/ {
	fn = $0
	sub(/\(.*/, "", fn)
	prefix = initials(fn)
	header = comment
	comment = ""
	infn = 1
	next
}
infn && /^}/ {
	infn = 0
	next
}
!infn {
	if ($0 ~ /^#/)
		comment = comment " " $0
	else
		comment = ""
	next
}
{
	line = unquote($0)
	gsub(/\$\(\(|\)\)/, " ", line)
	# a case's patterns (name=*) are no assignments
	if (incase && line ~ /^[ \t]*[^()]*\)/)
		sub(/^[ \t]*[^()]*\)/, ";", line)
	if (match(line, /(^|[ \t;])case[ \t].*[ \t]in([ \t]|$)/)) {
		incase = 1
		line = substr(line, 1, RSTART) ";" substr(line, RSTART + RLENGTH)
		if (line ~ /^[^()]*\)/)
			sub(/^[^()]*\)/, ";", line)
	}
	if (line ~ /(^|[ \t;])esac([ \t;]|$)/)
		incase = 0
	n = split(line, parts, /;|&&|\|\||\||\$\(|[(){}`]/)
	for (k = 1; k <= n; k++)
		statement(parts[k])
}
