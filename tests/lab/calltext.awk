# calltext.awk: the calls of the kernel's function_graph text (the tracefs `trace` file) or of
# ktop's --tree text (the same layout), for comparing the two call by call (lab test 52, in the
# guest as /lab/calltext.awk; tests/record/tree_text.sh on the host).
#
# Lines "depth name mark duration caller", per task, in the order they began; as the host's
# unit test (tests/unit/check_callgraph.c) reads it: "} /* name */" (the kernel printing an
# exit whose entry it printed as "name() {" before other calls at the same depth, e.g. an
# interrupt's) gives that call its duration. The kernel's text names tasks only where the CPU
# switches tasks ("sh-5 => dd-6"); before the first such line the task is the one switched
# from, or, with none, the only one ("?"). An interrupt taken as the kernel entered a call
# prints its calls first, one level deeper than the call: they are read as the call's, where
# ktop nests them, when the call's duration can hold them. Writes FILE.calls.PID for each
# task.
#
# usage: awk -f calltext.awk FILE
BEGIN { task = "" }
/^#/ { next }
/=>/ {
	if (match($0, /-[0-9]+ +=>/)) from = substr($0, RSTART + 1, RLENGTH - 1)
	sub(/ +=>/, "", from)
	if (match($0, /=> +[^ ]+-[0-9]+/)) { to = substr($0, RSTART, RLENGTH); sub(/.*-/, "", to) }
	if (task == "" && n["?"] > 0) {
		# the lines so far were the switched-from task's
		for (i = 1; i <= n["?"]; i++) call[from, i] = call["?", i]
		n[from] = n["?"]; delete n["?"]
		for (i = 1; i <= sp["?"]; i++) { st[from, i] = st["?", i]; sd[from, i] = sd["?", i] }
		sp[from] = sp["?"]; sp["?"] = 0
	}
	task = to
	next
}
index($0, "|") == 0 || ($0 !~ /\(\)/ && $0 !~ /}/) { next }
{
	bar = 0
	for (i = length($0); i > 0; i--) if (substr($0, i, 1) == "|") { bar = i; break }
	head = substr($0, 1, bar - 1); text = substr($0, bar + 1)
	# ktop's text names the task in each line; the kernel's only in switch lines
	t = task == "" ? "?" : task
	if (match(head, /-[0-9]+ +\|/)) { t = substr(head, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", t) }
	dur = "-"; mark = "-"
	if (match(head, /[0-9]+(\.[0-9]+)? us/)) {
		dur = substr(head, RSTART, RLENGTH - 3)
		pre = substr(head, 1, RSTART - 1); sub(/ +$/, "", pre)
		mark = substr(pre, length(pre), 1)
		if (mark !~ /[-+!#*@$]/) mark = "_"
	}
	match(text, /^ */); depth = (RLENGTH - 2) / 2
	text = substr(text, RLENGTH + 1)
	if (text ~ /^}/ && ed[t] != "" && depth < ed[t] + 0) ed[t] = "" # the awaited depth exited
	if (text ~ /^} \/\* /) {
		name = text; sub(/^} \/\* /, "", name); sub(/ .*/, "", name)
		while (sp[t] > 0 && sd[t, sp[t]] >= depth) unclosed(t)
		if (un[t, depth] != "" && un[t, depth] == name) {
			fill(t, ul[t, depth], mark, dur); un[t, depth] = ""
		} else {
			call[t, ++n[t]] = depth " " name " " mark " " dur " ?"
		}
		next
	}
	if (text ~ /^}/) {
		while (sp[t] > 0 && sd[t, sp[t]] > depth) unclosed(t)
		if (sp[t] > 0 && sd[t, sp[t]] == depth) { fill(t, st[t, sp[t]], mark, dur); sp[t]-- }
		next
	}
	name = text; sub(/\(.*/, "", name)
	while (sp[t] > 0 && sd[t, sp[t]] >= depth) unclosed(t)
	top = sp[t] > 0 ? sd[t, sp[t]] : -1
	caller = "?"
	if (sp[t] > 0 && top == depth - 1) caller = sn[t, sp[t]]
	if (index(text, "{")) { mark = "-"; dur = "-" }
	line = depth " " name " " mark " " dur " " caller
	if (ed[t] != "" && depth == ed[t] - 1 && within(t, dur)) {
		# An interrupt taken as the kernel entered this call (after it counted the depth,
		# before it recorded the entry) printed its calls first, one level deeper: they
		# are this call's, where ktop puts them (when the call's time holds them).
		for (i = n[t]; i >= ef[t]; i--) call[t, i + 1] = call[t, i]
		n[t]++
		for (i = ef[t] + 1; i <= n[t]; i++) {
			split(call[t, i], f, " ")
			if (f[1] == ed[t] && f[5] == "?")
				call[t, i] = f[1] " " f[2] " " f[3] " " f[4] " " name
		}
		at = ef[t]
		ed[t] = ""
	} else
		at = ++n[t]
	call[t, at] = line
	if (ed[t] != "" && depth < ed[t] + 0) ed[t] = ""
	if (ed[t] == "" && depth == top + 2) { ed[t] = depth; ef[t] = at }
	if (index(text, "{")) { sp[t]++; st[t, sp[t]] = at; sd[t, sp[t]] = depth; sn[t, sp[t]] = name }
}
# whether a call of duration dur ("-": not known yet) can hold the interrupt's calls before it
function within(t, dur,   i, f, sum) {
	if (dur == "-") return 1
	for (i = ef[t]; i <= n[t]; i++) {
		split(call[t, i], f, " ")
		if (f[1] == ed[t] && f[5] == "?") sum += f[4]
	}
	return dur + 0 >= sum
}
# an open call the text moved past at its depth, remembered there
function unclosed(t) {
	un[t, sd[t, sp[t]]] = sn[t, sp[t]]; ul[t, sd[t, sp[t]]] = st[t, sp[t]]; sp[t]--
}
function fill(t, i, mark, dur,   f) {
	split(call[t, i], f, " ")
	call[t, i] = f[1] " " f[2] " " mark " " dur " " f[5]
}
END {
	for (k in n) {
		out = FILENAME ".calls." k
		printf "" >out
		for (i = 1; i <= n[k]; i++) print call[k, i] >>out
		close(out)
	}
}
