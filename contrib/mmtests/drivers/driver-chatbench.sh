
run_bench() {
	$SCRIPTDIR/shellpacks/shellpack-bench-chatbench				\
		--rooms		"$CHATBENCH_ROOMS"				\
		--messages	"$CHATBENCH_MESSAGES"				\
		--runs		"$CHATBENCH_RUNS"				\
		${CHATBENCH_USERS:+--users "$CHATBENCH_USERS"}			\
		${CHATBENCH_MODEL:+--model "$CHATBENCH_MODEL"}			\
		${CHATBENCH_TRACE:+--trace "$CHATBENCH_TRACE"}			\
		${CHATBENCH_PIN:+--pin}
	return $?
}
