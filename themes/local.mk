# Theme files (themes/README.md), installed to $(pkgdatadir)/themes; default.theme is also
# compiled in (src/ui/theme.c). An uninstalled ktop finds this source folder too.
themesdir = $(pkgdatadir)/themes
dist_themes_DATA = \
	themes/default.theme \
	themes/light.theme \
	themes/mono.theme \
	themes/high-contrast.theme \
	themes/README.md
AM_CPPFLAGS += -DKTOP_PKGDATADIR='"$(pkgdatadir)"' -DKTOP_THEMES_SRCDIR='"$(abs_top_srcdir)/themes"'
