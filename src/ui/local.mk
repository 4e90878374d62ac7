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
	src/ui/panes/foldset.c src/ui/panes/foldset.h \
	src/ui/panes/view_rings.c \
	src/ui/range.c src/ui/panes/view_timeline.c src/ui/panes/view_heatmap.c \
	src/ui/panes/timeaxis.c src/ui/panes/timeaxis.h \
	src/ui/panes/timeline_marks.c src/ui/panes/timeline_marks.h \
	src/ui/panes/view_overview.c src/ui/ovtable.c src/ui/ovtable.h \
	src/ui/action.c src/ui/action.h src/ui/motion.c src/ui/motion.h \
	src/ui/header.c src/ui/header.h \
	src/ui/funcbar.c src/ui/funcbar.h \
	src/ui/help.c src/ui/help.h \
	src/ui/prompt.c src/ui/prompt.h \
	src/ui/panes/view_stream.c src/ui/panes/stream.h src/ui/panes/stream_split.c \
	src/ui/panes/stream_walk.c src/ui/panes/stream_search.c \
	src/ui/panes/view_picker.c \
	src/ui/panes/view_pmu.c \
	src/ui/panes/view_recevents.c \
	src/ui/ui_record.c src/ui/ui_record.h
# The flight recorder in the explorer: arming, the incidents pane.
src_libktop_a_SOURCES += src/ui/ui_arm.c src/ui/ui_arm.h src/ui/panes/view_incidents.c
# The call-tree pane (function_graph), the flame graph pane and its live sources.
src_libktop_a_SOURCES += src/ui/panes/view_tree.c src/ui/panes/view_flame.c \
	src/ui/panes/flame_live.c src/ui/panes/flame_live.h \
	src/ui/panes/flame_wakers.c src/ui/panes/flame_wakers.h
# Issue #4, the interactive side: completion, the stream's own pid/comm/CPU filter, the
# tracer pane with its function-filter picker and pid/comm scope, the probe editor.
src_libktop_a_SOURCES += \
	src/ui/complete.c src/ui/complete.h \
	src/ui/panes/rowfilter.c src/ui/panes/rowfilter.h \
	src/ui/panes/namefilter.c src/ui/panes/namefilter.h \
	src/ui/panes/scopespec.c src/ui/panes/scopespec.h \
	src/ui/panes/view_tracers.c \
	src/ui/panes/view_probes.c
# The histogram pane (src/backend/bpf/bpfhist.c's histograms).
src_libktop_a_SOURCES += src/ui/panes/view_hist.c
