# boot-measure: TPM2 boot measurements (issue 6). tss2-sys + tss2-mu + the TCTIs
# linked directly: no tctildr, no dlopen, no ESYS, no crypto library.
ifeq ($(WITH_BOOT_MEASURE),1)
BOOT_MEASURE_SRC = boot-measure/main.c boot-measure/measure.c boot-measure/report.c \
	boot-measure/tpm.c boot-measure/eventlog.c boot-measure/cel.c boot-measure/replay.c \
	boot-measure/jsonread.c boot-measure/algs.c
$(eval $(call lib_prog,boot-measure,$(BOOT_MEASURE_SRC),tss2-sys tss2-mu tss2-tcti-device tss2-tcti-swtpm tss2-tcti-mssim,))
endif
