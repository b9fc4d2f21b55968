/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The one table of which port, hw, netdev and ethtool counters are errors (port_counters.h), apart
 * from the sampling (port_counters.c): the spec loader and its fuzzer ask it too.
 */
#include <stdio.h>
#include <string.h>

#include "port_counters.h"

/* The error counters: a change during a run means packets were lost, retried, dropped or
 * corrupted. Names are the kernel's file names (the IBTA port counters, mlx5's and rxe's
 * hw_counters, the netdev's statistics); one name means the same in every directory. */
static const struct {
	const char *name, *why;
	bool timer;	/* counts retransmissions an ACK timer started (see gd_pc_class) */
} errors[] = {
	/* counters/ (IBTA PortCounters) */
	{ "symbol_error", "bit errors on the link: a dirty or bad cable, transceiver or port", false },
	{ "link_error_recovery", "the link retrained: a marginal cable or transceiver", false },
	{ "link_downed", "the link went down", false },
	{ "port_rcv_errors", "malformed packets received (bad CRC, length or header)", false },
	{ "port_rcv_remote_physical_errors", "packets marked bad upstream (EBP)", false },
	{ "port_rcv_switch_relay_errors", "packets the port could not relay", false },
	{ "port_xmit_discards", "packets discarded on transmit (link down or congestion)", false },
	{ "port_xmit_constraint_errors", "packets not sent: partition or filter constraint", false },
	{ "port_rcv_constraint_errors", "packets dropped: partition or filter constraint", false },
	{ "local_link_integrity_errors", "the link's physical errors crossed its threshold", false },
	{ "excessive_buffer_overrun_errors", "receive buffer overruns: flow control failed", false },
	/* hw_counters/ (mlx5) */
	{ "out_of_sequence", "packets arrived out of order: packets lost on the fabric", false },
	{ "packet_seq_err", "sequence error NAKs received: the peer saw packets lost", false },
	{ "implied_nak_seq_err", "implied sequence NAKs: responses lost", false },
	{ "local_ack_timeout_err", "ACK timeouts: requests retransmitted", true },
	{ "rnr_nak_retry_err", "receiver-not-ready retries ran out", false },
	{ "duplicate_request", "duplicate requests received: the peer retransmitted", true },
	{ "out_of_buffer", "packets dropped: no receive work request posted", false },
	{ "resp_local_length_error", "receive buffer too short for an incoming message", false },
	{ "resp_cqe_error", "responder completions with an error", false },
	{ "req_cqe_error", "requester completions with an error", false },
	{ "req_remote_invalid_request", "the peer NAKed an invalid request", false },
	{ "req_remote_access_errors", "the peer NAKed a remote access (key or bounds)", false },
	{ "resp_remote_access_errors", "remote accesses refused here (key or bounds)", false },
	{ "rx_icrc_encapsulated", "RoCE packets with a bad ICRC", false },
	{ "roce_adp_retrans", "adaptive retransmissions: packets lost", false },
	{ "roce_adp_retrans_to", "adaptive retransmission timeouts", true },
	{ "roce_slow_restart", "slow restarts after retransmission timeouts", true },
	/* hw_counters/ (rxe) */
	{ "out_of_seq_request", "requests out of sequence: packets lost", false },
	{ "rcvd_seq_err", "sequence error NAKs received: packets lost", false },
	{ "rcvd_rnr_err", "receiver-not-ready NAKs received", false },
	{ "send_rnr_err", "receiver-not-ready NAKs sent", false },
	{ "retry_exceeded_err", "retransmissions ran out: the QP failed", false },
	{ "retry_rnr_exceeded_err", "receiver-not-ready retries ran out", false },
	{ "completer_retry_err", "the completer retransmitted: ACKs or responses lost", true },
	{ "send_err", "packets the netdev refused to send", false },
	/* statistics/ of the netdev */
	{ "rx_errors", "frames received with errors", false },
	{ "tx_errors", "frames not sent because of errors", false },
	{ "rx_dropped", "frames dropped after reception (no buffer, filtered)", false },
	{ "tx_dropped", "frames dropped before transmission", false },
	{ "rx_missed_errors", "frames the NIC missed: its receive ring was full", false },
	{ "rx_crc_errors", "frames with a bad CRC: cable, transceiver or port", false },
	{ "rx_frame_errors", "misaligned frames received", false },
	{ "rx_length_errors", "frames with a bad length", false },
	{ "rx_over_errors", "receive ring overruns", false },
	{ "rx_fifo_errors", "receive FIFO overruns", false },
	{ "tx_aborted_errors", "transmissions aborted", false },
	{ "tx_carrier_errors", "carrier lost while sending", false },
	{ "tx_fifo_errors", "transmit FIFO underruns", false },
	/* ethtool -S (mlx5's names; '#' stands for a priority's digits) */
	{ "tx_pause_storm_error_events", "a PFC pause storm: the port sent pause frames until its "
	  "stall watchdog stopped them, and packets were dropped meanwhile", false },
	{ "rx_discards_phy", "packets the port dropped for lack of receive buffer: on a lossless "
	  "(PFC) fabric, flow control failed", false },
	{ "tx_discards_phy", "packets the port discarded on transmit", false },
	{ "rx_prio#_discards", "packets of a priority discarded on receive: on a lossless "
	  "priority, flow control failed", false },
	{ "rx_prio#_buf_discard", "packets of a priority dropped for lack of buffer: on a lossless "
	  "priority, PFC headroom failed", false },
	{ "rx_prio#_cong_discard", "packets of a priority dropped by congestion (WRED): on a "
	  "lossless priority, flow control failed", false },
	{ "rx_out_of_buffer", "packets dropped: no receive buffer posted", false },
	{ "rx_crc_errors_phy", "frames with a bad CRC: cable, transceiver or port", false },
	{ "rx_symbol_err_phy", "symbol errors on the link: cable, transceiver or port", false },
	{ "rx_pcs_symbol_err_phy", "symbol errors FEC did not correct: frames lost to a high bit "
	  "error rate (cable, transceiver or port)", false },
	{ "link_down_events_phy", "the link went down", false },
	{ "rx_in_range_len_errors_phy", "frames with a bad length field", false },
	{ "rx_undersize_pkts_phy", "undersized frames with a good CRC received", false },
	{ "rx_fragments_phy", "undersized frames with a bad CRC received", false },
	{ "rx_jabbers_phy", "oversized frames with a bad CRC received", false },
	{ "tx_errors_phy", "frames the port could not send because of errors", false },
	{ "rx_buff_alloc_err", "receive buffers the driver could not allocate", false },
	{ "rx_wqe_err", "receive work requests completed in error", false },
	{ "tx_cqe_err", "send completions in error", false },
};

/* name against a table entry: '#' matches one or more digits. */
static bool matches(const char *pat, const char *name)
{
	for (; *pat; pat++, name++)
		if (*pat == '#') {
			if (*name < '0' || *name > '9')
				return false;
			while (name[1] >= '0' && name[1] <= '9')
				name++;
		} else if (*pat != *name) {
			return false;
		}
	return !*name;
}

enum gd_pc_class gd_pc_class(const char *name, bool soft, const char **why)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++)
		if (matches(errors[i].name, name) && soft && errors[i].timer) {
			*why = "a software device's ACK timer runs on the host's CPU and fires when the "
			       "host is slow, without loss (Soft-RoCE under emulation): reported, not "
			       "judged; lost packets show in its sequence-error counters";
			return GD_PC_INFO;
		} else if (matches(errors[i].name, name)) {
			*why = errors[i].why;
			return GD_PC_ERROR;
		}
	if (strstr(name, "pause_storm"))
		*why = "the port sent pause frames for long (a stall warning): congestion, not "
		       "loss; its error event (the watchdog stopped them) fails";
	else if (strstr(name, "pause") || strstr(name, "pfc"))
		*why = "flow control (PFC or global pause): the link partner paused the sender; on "
		       "lossless RoCE this is congestion handled, not loss: reported, not judged";
	else if (strstr(name, "cnp") || strstr(name, "ecn") || strstr(name, "_marked"))
		*why = "congestion notification (ECN/CNP): congestion, not loss";
	else {
		*why = "traffic or state: reported, not judged";
		return GD_PC_INFO;
	}
	return GD_PC_CONGESTION;
}

void gd_pc_error_names(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", errors[i].name);
}

const char *gd_pc_source_name(enum gd_pc_source s)
{
	static const char *const n[GD_PC_NSRC] = { "counters", "hw_counters", "netdev",
						   "ethtool" };

	return s < GD_PC_NSRC ? n[s] : "?";
}
