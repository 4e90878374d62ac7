# Recordings: trace-cmd's trace.dat written from the store (-o, w), explored offline (-i), read
# into call trees (the call-tree pane's O).
src_libktop_a_SOURCES += \
	src/record/tdat.h \
	src/record/outfile.c src/record/outfile.h \
	src/record/tdat_write.c src/record/tdat_write.h \
	src/record/recorder.c src/record/recorder.h \
	src/record/incident.c src/record/incident_stacks.c src/record/incident.h
src_libktop_a_SOURCES += \
	src/record/tdat_check.c src/record/tdat_check.h \
	src/record/recording.h \
	src/app/app_recording.c \
	src/record/callgraph_file.c src/record/callgraph_file.h
if HAVE_LIBTRACECMD
src_libktop_a_SOURCES += src/record/recording.c src/record/recording_local.h \
	src/record/recording_walk.c src/record/recording_index.c src/record/recording_pager.c \
	src/record/tdat_open.c src/record/tdat_open.h \
	src/record/tdat_mirror.c src/record/tdat_mirror.h
else
src_libktop_a_SOURCES += src/record/recording_none.c
endif
