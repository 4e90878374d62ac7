# The remote protocol (docs/remote.md): frames and messages (pure, fuzzed), the agent
# (ktop --agent) and the viewer's side of the pipe.
src_libktop_a_SOURCES += \
	src/remote/proto.h src/remote/frame.c src/remote/msg.c \
	src/remote/histrows.c src/remote/histrows.h \
	src/remote/counterrows.c src/remote/counterrows.h \
	src/remote/profrows.c src/remote/profrows.h src/remote/profrows_tree.c \
	src/remote/ovrows.c src/remote/ovrows.h \
	src/remote/agentprof.c src/remote/agentprof.h \
	src/remote/agentov.c src/remote/agentov.h \
	src/remote/agenttrig.c src/remote/agenttrig.h \
	src/remote/agentlist.c src/remote/agentlist.h \
	src/remote/agentnames.c src/remote/agentnames.h \
	src/remote/agentustack.c src/remote/agentustack.h \
	src/remote/agentreq.c src/remote/agentreq.h \
	src/remote/agent.c src/remote/agent.h \
	src/remote/client.c src/remote/client.h \
	src/remote/push.c src/remote/push.h \
	src/remote/mirror.c src/remote/mirror.h \
	src/remote/pages.c src/remote/pages.h \
	src/remote/fmtcheck.c src/remote/fmtcheck.h \
	src/remote/recq.c src/remote/recq.h \
	src/remote/scopereq.c src/remote/scopereq.h \
	src/remote/hostmerge.c src/remote/hostmerge.h \
	src/remote/hostclock.c src/remote/hostclock.h
