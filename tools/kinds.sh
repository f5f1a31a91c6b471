# SPDX-License-Identifier: GPL-2.0
#
# The disturbances the verdict is tested on, sourced by
# tools/bench-diagnosis.sh and tools/record-corpus.sh so that both provoke
# the same thing and expect the same verdict of it.
#
#   kind_args KIND PID NAME [PID2]   tools/disturb.sh's arguments, PID
#                                    the process disturbed (the server's
#                                    unless said otherwise), PID2 the
#                                    other one (pin confines both)
#   kind_expect KIND NAME            "cause task" of the disturbed run
#                                    ("none -": no run slow; task "-":
#                                    nothing to name)
#
# NAME is the hog's (a new one each series, so that only a verdict that
# read it off the kernel can name it).

KINDS_ALL="hog rt ptrace freeze offline stop quota renice"

kind_args() {
	case $1 in
	clean) echo "" ;;
	hog) echo "hog $3" ;;
	rt) echo "rt 1" ;;
	ptrace) echo "ptrace $2" ;;
	freeze) echo "freeze $2" ;;
	offline) echo "offline 1" ;;
	stop) echo "stop $2" ;;
	quota) echo "quota $2" ;;
	sockbuf) echo "sockbuf" ;;
	pin) echo "pin $2 ${4:-}" ;;
	drop) echo "drop" ;;
	renice) echo "renice $2 19" ;;
	*) return 1 ;;
	esac
}

kind_expect() {
	case $1 in
	clean) echo "none -" ;;
	hog) echo "outsider_cpu $2" ;;
	rt) echo "outsider_cpu chb_rt" ;;
	ptrace) echo "ptrace_stop strace" ;;
	freeze) echo "frozen chat_s" ;;
	offline) echo "cpu_offline -" ;;
	stop) echo "stopped chat_s" ;;
	quota) echo "cpu_quota chat_s" ;;
	sockbuf) echo "socket_backpressure -" ;;
	pin) echo "sched_contention -" ;;
	drop) echo "tcp_retransmits -" ;;
	renice) echo "sched_weight chat_s" ;;
	*) return 1 ;;
	esac
}
