# Run in the guest (tests/qemu/test-distro.sh): how each running service's main process
# was started, one line per service, "NAME|key=value|...", under either init. Only what
# the init decides and the daemon leaves alone is noted: ignored signals, capabilities,
# no_new_privs, seccomp, umask, limits, working directory, session, environment. Two
# lines more: the limits of PID 1 ("pid1") and of this SSH login ("ssh-login").
if [ "$(cat /proc/1/comm)" = ember-init ]; then
	units=$(emberctl list | awk 'NR > 1 && ($2 == "ready" || $2 == "running") && $3 ~ /^[0-9]+$/ { print $1 }')
	mainpid() { emberctl show -p MainPID --value "$1"; }
else
	units=$(systemctl list-units --type=service --state=running --no-legend --plain |
		awk '{ sub(/\.service$/, "", $1); print $1 }')
	mainpid() { systemctl show -p MainPID --value "$1.service"; }
fi
limits() { # PID: its limits, the ones an init sets or passes on
	awk '/^Max open files/ { printf "nofile=%s:%s ", $4, $5 }
		/^Max processes/ { printf "nproc=%s:%s ", $3, $4 }
		/^Max locked memory/ { printf "memlock=%s:%s ", $4, $5 }
		/^Max core file size/ { printf "core=%s:%s ", $5, $6 }
		/^Max stack size/ { printf "stack=%s:%s ", $4, $5 }' "/proc/$1/limits"
}
# PID 1's own limits reach every PAM login: Debian's pam_limits takes /proc/1/limits as
# its defaults. This script runs in such a login (sshd's PAM session).
echo "pid1|limits=$(limits 1)"
echo "ssh-login|limits=$(limits $$)"
stable='^(LANG|LC_[A-Z]+|LANGUAGE|PATH|TERM|HOME|USER|LOGNAME|SHELL|TZ|PIDFILE)='
for u in $units; do
	pid=$(mainpid "$u")
	[ -n "$pid" ] && [ "$pid" -gt 0 ] 2>/dev/null || continue
	st=/proc/$pid/status
	f() { awk -v k="$1:" '$1 == k { print $2 }' "$st"; }
	lim=$(limits "$pid")
	env=$(tr '\0' '\n' <"/proc/$pid/environ" | grep -E "$stable" | sort | tr '\n' ' ')
	names=$(tr '\0' '\n' <"/proc/$pid/environ" | cut -d= -f1 | sort | tr '\n' ' ')
	sid=other; [ "$(awk '{ print $6 }' "/proc/$pid/stat")" = "$pid" ] && sid=leader
	echo "$u|ign=$(f SigIgn)|caps=$(f CapBnd)/$(f CapEff)/$(f CapAmb)|nnp=$(f NoNewPrivs)|seccomp=$(f Seccomp)|umask=$(f Umask)|limits=$lim|cwd=$(readlink "/proc/$pid/cwd")|env=$env|names=$names|session=$sid"
done
