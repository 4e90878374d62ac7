dist_pkgdata_DATA += themes/default.theme
