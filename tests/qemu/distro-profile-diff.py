"""Compare how services were started under ember and under systemd on the Debian disk
(tests/qemu/distro-profile.sh gives one line per service, one file per init). Prints one
line per difference, but the known ones (docs/services.md, "The environment ember-init
sets"), and exits 1 when there is any.
usage: distro-profile-diff.py EMBER SYSTEMD"""
import sys

# Known, documented differences: (service or "*", field, what is passed over)
KNOWN = {}  # none left since 2026-12-07 (dbus's SYSTEMD_NSS_DYNAMIC_BYPASS was the last)
ARGV_IN_ENVIRON = ("ssh",)  # sshd writes its process title over its environment


def load(path):
    units = {}
    for line in open(path, encoding="utf-8", errors="replace"):
        parts = line.rstrip("\n").split("|")
        if len(parts) < 2:
            continue
        units[parts[0]] = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
    return units


def differences(name, ember, systemd):
    for field in sorted(set(ember) | set(systemd)):
        a, b = ember.get(field, ""), systemd.get(field, "")
        if a == b:
            continue
        if field in ("env", "names") and name in ARGV_IN_ENVIRON:
            continue
        if field == "names":
            known = KNOWN.get((name, field), set())
            only_e = set(a.split()) - set(b.split()) - known
            only_s = set(b.split()) - set(a.split()) - known
            if only_e or only_s:
                yield f"{name}: environment: only under ember {sorted(only_e)}, only under systemd {sorted(only_s)}"
            continue
        yield f"{name}: {field}: ember [{a.strip()}], systemd [{b.strip()}]"


def main():
    ember, systemd = load(sys.argv[1]), load(sys.argv[2])
    both = sorted(set(ember) & set(systemd))
    found = [d for name in both for d in differences(name, ember[name], systemd[name])]
    print(f"compared {len(both)} services")
    for d in found:
        print(d)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
