# Event sources: where events and control come from (source.h), the live kernel session or
# a recording; the app holds one and the panes ask it.
src_libktop_a_SOURCES += \
	src/source/source.c src/source/source.h \
	src/source/source_live.c \
	src/source/live_data.c src/source/live_data.h \
	src/source/source_recording.c \
	src/source/source_remote.c
