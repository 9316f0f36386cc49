#!/bin/sh
# sandbox-more's integration probes: print what the service sees, one "name=value" a line,
# then stay up (test-execmore-run.sh reads the lines with emberctl log).
map() { tr -s ' ' <"$1" | sed 's/^ //' | tr '\n' ';'; }
for what in "$@"; do
	case $what in
	pid1) [ -e /proc/1/status ] && echo pid1=visible || echo pid1=hidden ;;
	self) [ -e /proc/self/status ] && echo self=visible || echo self=hidden ;;
	meminfo) [ -e /proc/meminfo ] && echo meminfo=present || echo meminfo=absent ;;
	mntns) echo "mntns=$(readlink /proc/self/ns/mnt)" ;;
	# the propagation of the visible "/" (the last line for it): "shared master", ... or none
	prop) echo "prop=$(awk '$5 == "/" { s = ""; for (i = 7; $i != "-"; i++) { f = $i; sub(/:.*/, "", f); s = s f " " } }
		END { print s == "" ? "none" : s }' /proc/self/mountinfo)" ;;
	maps) echo "uidmap=$(map /proc/self/uid_map)"; echo "gidmap=$(map /proc/self/gid_map)" ;;
	uid) echo "uid=$(id -u)" ;;
	devs)
		echo "devs=$(ls /dev | tr '\n' ' ')"
		if echo x >/dev/null && [ "$(head -c 4 /dev/zero | wc -c)" = 4 ]; then echo devnull=works; else echo devnull=broken; fi ;;
	policy) echo "policy=$(sed -n 's/^policy *: *//p' /proc/self/sched)" ;;
	cpus) echo "cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)" ;;
	ionice) echo "ionice=$(ionice -p $$)" ;;
	chrt) echo "chrt=$(chrt -p $$ | tr '\n' ' ')" ;;
	env) echo "env=$(env | grep '^UNSET_' | sort | tr '\n' ' ')" ;;
	passenv) echo "passenv=$(env | grep -E '^(PASSME|OVERRIDDEN|NOTSET)=' | LC_ALL=C sort | tr '\n' ' ')" ;;
	ipcns)
		echo "ipcns=$(readlink /proc/self/ns/ipc)"
		echo "shm=$(ipcs -m | grep -c '^0x')"
		echo "mqueue=$(grep ' /dev/mqueue ' /proc/self/mountinfo | sed 's/.* - \([^ ]*\) .*/\1/')" ;;
	credfiles)
		d=$CREDENTIALS_DIRECTORY
		[ -n "$d" ] || continue
		printf 'credfiles='
		for f in $(ls "$d" | LC_ALL=C sort); do printf '%s=%s ' "$f" "$(cat "$d/$f")"; done
		echo ;;
	creds)
		d=$CREDENTIALS_DIRECTORY
		echo "creds=${d:-unset}"
		[ -n "$d" ] || continue
		echo "key=$(cat "$d/key") store=$(cat "$d/fromstore") greeting=$(cat "$d/greeting")"
		echo "files=$(ls "$d" | tr '\n' ' ')"
		echo "owner=$(stat -c '%U %a' "$d/key") dirmode=$(stat -c '%U %a' "$d")"
		if (echo x >"$d/key") 2>/dev/null || touch "$d/new" 2>/dev/null; then
			echo cred-write=yes
		else
			echo cred-write=no
		fi ;;
	capeff) echo "capeff=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)" ;;
	securebits) echo "securebits=$(setpriv -d | sed -n 's/^Securebits: //p')" ;;
	ipc)
		ipcmk -M 4096 >/dev/null && echo "shm-made=yes"
		echo x >"/dev/shm/execmore-$(id -un)" && echo "posix-made=yes" ;;
	varlib) if touch /var/lib/execmore-probe 2>/dev/null; then echo varlib=writable; else echo varlib=read-only; fi ;;
	esac
done
echo probe-done
exec sleep 1000
