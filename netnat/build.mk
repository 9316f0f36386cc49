# netnat: NAT through nftables, netlink only (libnftnl + libmnl).
ifeq ($(WITH_NETNAT),1)
NETNAT_SRC = netnat/netnat.c netnat/entry.c netnat/conffile.c netnat/batch.c netnat/ruleset.c \
             netnat/nlink.c netnat/kstate.c netnat/sync.c netnat/forwarding.c
$(eval $(call lib_prog,netnat,$(NETNAT_SRC),libnftnl libmnl,))
MANPAGES += man/netnat.8.scd man/netnat.conf.5.scd
endif
