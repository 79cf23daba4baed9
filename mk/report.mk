# tr-report writes its style sheet and script inline into every page;
# they are kept as plain files and become C strings here. ('?' is
# escaped so that no "??" in the script reads as a C trigraph.)
$(B)/report-asset.h: cmd/tr-report.css cmd/tr-report.js | $(B)/.dir
	{ printf 'static const char report_css[] =\n'; \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' \
		-e 's/$$/\\n"/' cmd/tr-report.css; \
	printf ';\nstatic const char report_js[] =\n'; \
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/"/' \
		-e 's/$$/\\n"/' cmd/tr-report.js; \
	printf ';\n'; } > $@

$(BINDIR)/tr-report: $(B)/report-asset.h
$(BINDIR)/tr-report: ALL_CFLAGS += -I$(B)
