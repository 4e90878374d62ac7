# The interactive front end: the only code that includes curses.
src_libktop_a_SOURCES += \
	src/ui/ui.h \
	src/ui/crt.c src/ui/crt.h \
	src/ui/theme.c src/ui/theme.h \
	src/ui/settings.c src/ui/settings.h \
	src/ui/layout.c src/ui/layout.h \
	src/ui/view.h \
	src/ui/screen.c src/ui/screen.h src/ui/screen_draw.c src/ui/screen_prompt.c \
	src/ui/pane.c src/ui/pane.h \
	src/ui/foldset.c src/ui/foldset.h \
	src/ui/view_rings.c \
	src/ui/range.c src/ui/view_timeline.c src/ui/view_heatmap.c \
	src/ui/timeaxis.c src/ui/timeaxis.h \
	src/ui/view_overview.c src/ui/ovtable.c src/ui/ovtable.h \
	src/ui/action.c src/ui/action.h src/ui/motion.c src/ui/motion.h \
	src/ui/header.c src/ui/header.h \
	src/ui/funcbar.c src/ui/funcbar.h \
	src/ui/help.c src/ui/help.h \
	src/ui/prompt.c src/ui/prompt.h \
	src/ui/view_stream.c src/ui/stream.h src/ui/stream_split.c \
	src/ui/stream_walk.c src/ui/stream_search.c \
	src/ui/view_picker.c \
	src/ui/view_pmu.c \
	src/ui/view_recevents.c \
	src/ui/ui_record.c src/ui/ui_record.h
# The flight recorder in the explorer: arming, the incidents pane.
src_libktop_a_SOURCES += src/ui/ui_arm.c src/ui/ui_arm.h src/ui/view_incidents.c
# The call-tree pane (function_graph), the flame graph pane and its live sources.
src_libktop_a_SOURCES += src/ui/view_tree.c src/ui/view_flame.c \
	src/ui/flame_live.c src/ui/flame_live.h \
	src/ui/flame_wakers.c src/ui/flame_wakers.h
# Issue #4, the interactive side: completion, the stream's own pid/comm/CPU filter, the
# tracer pane with its function-filter picker and pid/comm scope, the probe editor.
src_libktop_a_SOURCES += \
	src/ui/complete.c src/ui/complete.h \
	src/ui/rowfilter.c src/ui/rowfilter.h \
	src/ui/namefilter.c src/ui/namefilter.h \
	src/ui/scopespec.c src/ui/scopespec.h \
	src/ui/view_tracers.c \
	src/ui/view_probes.c
# The histogram pane (src/backend/bpfhist.c's histograms).
src_libktop_a_SOURCES += src/ui/view_hist.c
