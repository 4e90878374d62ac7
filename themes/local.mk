# Theme files are installed to $(pkgdatadir)/themes once ktop reads them (see README.md).
