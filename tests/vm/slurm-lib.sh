# shellcheck shell=bash
# A one-node Slurm cluster (slurmctld + slurmd) for a test, everything under one
# writable directory: Debian's slurm-wlm 22.05 with AuthType=auth/none and
# CredType=cred/none (no munge daemon, no key), proctrack/pgid, no cgroups,
# MpiDefault=pmix (Open MPI's MPI_Init under srun). slurmd 22.05 initialises its cgroup
# plugin even with proctrack/pgid and task/none, and fails where /sys/fs/cgroup is not
# mounted: in the gd-vm guest (nothing mounted there) slurm_start mounts a cgroup v1
# layout (a tmpfs, the freezer and the name=systemd hierarchies), as on a v1 host. Sourced, not a test.
#   slurm_start DIR   write DIR/slurm.conf, export SLURM_CONF, start both daemons,
#                     wait (deadline) until the node is idle; 0 or 1 (reason printed)
#                     (lines in $SLURM_EXTRA_CONF, if set, are appended to slurm.conf)
#   slurm_stop        end the two daemons this shell started (by pid)
SLURM_CTLD_PID='' SLURM_D_PID='' SLURM_DIR='' SLURM_CGROUP_MOUNTED=''

slurm_cgroup() { # in the guest only: a cgroup v1 layout for slurmd's cgroup plugin
	local c=/sys/fs/cgroup
	[ "${GD_VM:-}" = 1 ] || return 0
	grep -q " $c " /proc/mounts && return 0
	mount -t tmpfs -o mode=755 cgroup_root $c && mkdir -p $c/freezer $c/systemd &&
		mount -t cgroup -o freezer cgroup $c/freezer &&
		mount -t cgroup -o none,name=systemd cgroup $c/systemd || {
		echo "slurm: could not mount a cgroup v1 layout on $c (slurmd needs one)"; return 1; }
	SLURM_CGROUP_MOUNTED=1
}

slurm_conf() { # slurm_conf DIR HOST CPUS
	cat <<CONF
ClusterName=gdperf
SlurmctldHost=$2(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$1/state
SlurmdSpoolDir=$1/spool
SlurmctldPidFile=$1/slurmctld.pid
SlurmdPidFile=$1/slurmd.pid
SlurmctldLogFile=$1/slurmctld.log
SlurmdLogFile=$1/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=pmix
LaunchParameters=use_interactive_step
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
NodeName=$2 NodeAddr=127.0.0.1 CPUs=$3 State=UNKNOWN
PartitionName=gd Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
}

slurm_start() {
	local dir=$1 host cpus end
	SLURM_DIR=$dir
	host=$(hostname)
	cpus=$(nproc)
	mkdir -p "$dir/state" "$dir/spool" || return 1
	slurm_cgroup || return 1
	{ slurm_conf "$dir" "$host" "$cpus"; [ -z "${SLURM_EXTRA_CONF:-}" ] || printf '%s\n' "$SLURM_EXTRA_CONF"; } \
		>"$dir/slurm.conf"
	export SLURM_CONF=$dir/slurm.conf
	slurmctld -D -i >"$dir/slurmctld.out" 2>&1 &
	SLURM_CTLD_PID=$!
	slurmd -D -N "$host" >"$dir/slurmd.out" 2>&1 &
	SLURM_D_PID=$!
	end=$((SECONDS + 60))
	until sinfo -h -n "$host" -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed)'; do
		if [ $SECONDS -ge $end ] || ! kill -0 "$SLURM_CTLD_PID" 2>/dev/null ||
			! kill -0 "$SLURM_D_PID" 2>/dev/null; then
			echo "slurm: the node did not become idle within 60 s; sinfo says:"
			sinfo -N -l 2>&1 | tail -n 3
			tail -n 15 "$dir/slurmctld.log" "$dir/slurmd.log" "$dir/slurmctld.out" "$dir/slurmd.out" 2>/dev/null
			return 1
		fi
		sleep 1
	done
}

slurm_stop() {
	local p
	for p in $SLURM_D_PID $SLURM_CTLD_PID; do
		kill "$p" 2>/dev/null
	done
	for p in $SLURM_D_PID $SLURM_CTLD_PID; do
		timeout 15 tail --pid="$p" -f /dev/null 2>/dev/null || kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	SLURM_D_PID='' SLURM_CTLD_PID=''
	if [ -n "$SLURM_CGROUP_MOUNTED" ]; then
		umount /sys/fs/cgroup/systemd /sys/fs/cgroup/freezer /sys/fs/cgroup 2>/dev/null
		SLURM_CGROUP_MOUNTED=''
	fi
}
