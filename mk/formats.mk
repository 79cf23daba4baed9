# formats/*.md are the section-5 pages as Markdown, for readers of the
# source tree; the pages are the specifications. `make formats` remakes
# them (mandoc indents literal blocks with a tab; Markdown readers and
# greps of the files take four spaces). tests/format.bats makes them
# into another FORMATDIR and compares.
FORMATDIR ?= formats
FORMATS := $(addprefix $(FORMATDIR)/,tr.md model.md net.md runs.md)
.PHONY: formats
formats: $(FORMATS)

$(FORMATDIR)/tr.md: man/tr-format.5
$(FORMATDIR)/model.md: man/tr-model.5
$(FORMATDIR)/net.md: man/tr-net.5
$(FORMATDIR)/runs.md: man/tr-runs.5
$(FORMATS):
	{ printf '<!-- made from %s by make formats: edit the page -->\n\n' $<; \
	mandoc -T markdown $< | sed 's/^	/    /'; } > $@
