# The remote protocol (docs/remote.md): frames and messages (pure, fuzzed), the agent
# (ktop --agent) and the viewer's side of the pipe.
src_libktop_a_SOURCES += \
	src/remote/proto.h src/remote/frame.c src/remote/msg.c \
	src/remote/histrows.c src/remote/histrows.h \
	src/remote/counterrows.c src/remote/counterrows.h \
	src/remote/profrows.c src/remote/profrows.h src/remote/profrows_tree.c \
	src/remote/ovrows.c src/remote/ovrows.h \
	src/agent/agentprof.c src/agent/agentprof.h \
	src/agent/agentov.c src/agent/agentov.h \
	src/agent/agenttrig.c src/agent/agenttrig.h \
	src/agent/agentlist.c src/agent/agentlist.h \
	src/agent/agentustack.c src/agent/agentustack.h \
	src/agent/agentreq.c src/agent/agentreq.h \
	src/agent/agent.c src/agent/agent.h \
	src/remote/client.c src/remote/client.h \
	src/remote/push.c src/remote/push.h \
	src/remote/mirror.c src/remote/mirror.h \
	src/remote/pages.c src/remote/pages.h \
	src/remote/fmtcheck.c src/remote/fmtcheck.h \
	src/remote/recq.c src/remote/recq.h \
	src/app/scopereq.c src/app/scopereq.h \
	src/remote/hostmerge.c src/remote/hostmerge.h \
	src/remote/hostclock.c src/remote/hostclock.h
