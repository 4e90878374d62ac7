# Event sources: where events and control come from (source.h), the live kernel session, a
# recording or agents (remote_*.c); the app holds one and the panes ask it.
src_libktop_a_SOURCES += \
	src/source/source.c src/source/source.h \
	src/source/source_live.c \
	src/source/live_data.c src/source/live_data.h \
	src/source/source_recording.c \
	src/source/recording_overview.c src/source/recording_overview.h \
	src/source/remote_local.h \
	src/source/remote_recv.c \
	src/source/remote_ops.c \
	src/source/remote_control.c \
	src/source/remote_overview.c \
	src/source/remote_panes.c \
	src/source/remote_triggers.c \
	src/source/remote_open.c
EXTRA_DIST += src/source/README.md
