/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The libfabric fabric's setup (fabric_ofi.h). */
#include "config.h"

#include "fabric_ofi.h"
#include "ofi_lib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>

#include "clock.h"
#include "log.h"

#define OFI_VERSION FI_VERSION(1, 9)
#define OFI_MR_KEY 0x6764u /* the requested key without FI_MR_PROV_KEY */
#define OFI_MR_MODES (FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED)

static uint64_t op_caps(const struct gd_ofi_cfg *c)
{
	switch (c->op) {
	case GD_OP_SEND:
		return FI_MSG;
	case GD_OP_ATOMIC:
		return FI_ATOMIC;
	default:
		return FI_RMA;
	}
}

static const char *caps_needed(const struct gd_ofi_cfg *c)
{
	switch (c->op) {
	case GD_OP_SEND:
		return "FI_MSG (send/receive)";
	case GD_OP_ATOMIC:
		return "FI_ATOMIC (atomics)";
	default:
		return "FI_RMA (RDMA write/read)";
	}
}

/* Every domain is FI_THREAD_DOMAIN, the providers' lock-free path: one
 * thread at a time calls its objects (fi_domain(3)). One thread posts and
 * polls (the CPU loop, one proxy thread, a passive side): one domain.
 * Several (the proxy's threads, each on its own endpoints at once): a domain
 * per thread, each with its CQs, AV and registration (gd_ofi_dom_of), where
 * one FI_THREAD_SAFE domain shared by all made the provider take its locks
 * on every call (shm, 4 threads: pthread_mutex 27% of the client, issue 32).
 * The setup runs on the main thread before the proxy threads start, and the
 * side channel's waits leave the threads' domains alone (gd_ofi_progress_tx). The
 * one rule of how many. */
static uint32_t domains_of(const struct gd_ofi_cfg *c)
{
	return c->threads ? c->threads : 1;
}

static struct fi_info *make_hints(const struct gd_ofi_cfg *c, bool caps)
{
	struct fi_info *h = gd_fi_allocinfo();

	if (!h)
		return NULL;
	h->fabric_attr->prov_name = strdup(c->o->provider);
	if (c->o->fabric_name[0])
		h->fabric_attr->name = strdup(c->o->fabric_name);
	if (c->o->domain[0])
		h->domain_attr->name = strdup(c->o->domain);
	if (!caps)
		return h;
	h->caps = op_caps(c);
	h->ep_attr->type = c->o->ep == GD_EP_MSG ? FI_EP_MSG : FI_EP_RDM;
	h->domain_attr->mr_mode = OFI_MR_MODES | (c->hmem ? FI_MR_HMEM : 0);
	h->domain_attr->threading = FI_THREAD_DOMAIN;
	/* data progress stays the provider's (rxm's auto-progress thread
	 * crashed in fi_cq_read here): a passive side drives it while it
	 * waits on the side channel (gd_ofi_progress) */

	h->mode = 0; /* our contexts are ids: no FI_CONTEXT */
	if (c->tclass) /* --tclass: the DSCP (roce_opts.h refused ECN bits) */
		h->tx_attr->tclass = fi_tc_dscp_set((uint8_t)(c->tclass >> 2));
	if (c->hmem)
		h->caps |= FI_HMEM;
	if (c->alt && c->op != GD_OP_ATOMIC)
		h->domain_attr->cq_data_size = 4;
	return h;
}

/* The provider's offer, in words: "rdm: msg rma atomic; msg: msg rma". */
static void describe_offer(struct fi_info *all, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (struct fi_info *i = all; i && off + 64 < len; i = i->next) {
		const char *t = i->ep_attr->type == FI_EP_RDM ? "rdm" :
				i->ep_attr->type == FI_EP_MSG ? "msg" : "dgram";
		char item[96];

		snprintf(item, sizeof(item), "%s (%s%s%s%s)", t, i->caps & FI_MSG ? "msg " : "",
			 i->caps & FI_RMA ? "rma " : "", i->caps & FI_ATOMIC ? "atomic " : "",
			 i->caps & FI_HMEM ? "hmem" : "");
		if (strstr(buf, item))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "", item);
	}
}

/* Whether one entry has the --domain and --fabric-name asked; else the
 * domain/fabric pairs there are, in buf. */
static bool has_domain(const struct gd_fabric_opts *o, struct fi_info *all, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (struct fi_info *i = all; i; i = i->next) {
		if ((!o->domain[0] || !strcmp(i->domain_attr->name, o->domain)) &&
		    (!o->fabric_name[0] || !strcmp(i->fabric_attr->name, o->fabric_name)))
			return true;
		if (off + 80 < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s (%s)", off ? ", " : "",
						i->domain_attr->name, i->fabric_attr->name);
	}
	return false;
}

/* The providers of this libfabric that register GPU memory (FI_HMEM), as
 * "shm, verbs;ofi_rxm"; "" when none does (a libfabric built without CUDA). */
static void hmem_providers(char *buf, size_t len)
{
	struct fi_info *h = gd_fi_allocinfo(), *all = NULL;
	size_t off = 0;

	buf[0] = '\0';
	if (!h)
		return;
	h->caps = FI_HMEM;
	h->domain_attr->mr_mode = OFI_MR_MODES | FI_MR_HMEM;
	if (!gd_fi_getinfo(OFI_VERSION, NULL, NULL, 0, h, &all))
		for (struct fi_info *i = all; i && off + 40 < len; i = i->next)
			if (!strstr(buf, i->fabric_attr->prov_name))
				off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ", " : "",
							i->fabric_attr->prov_name);
	gd_fi_freeinfo(all);
	gd_fi_freeinfo(h);
}

static int explain_no_hmem(const struct gd_ofi_cfg *c, const char *offer)
{
	char with[256];

	hmem_providers(with, sizeof(with));
	if (!with[0])
		gd_error("libfabric provider '%s' offers no FI_HMEM (GPU memory): this libfabric was "
			 "built without CUDA (Debian's is); use a libfabric built with CUDA "
			 "(--with-cuda), or drop --use_cuda. It offers: %s", c->o->provider, offer);
	else
		gd_error("libfabric provider '%s' offers no FI_HMEM (GPU memory); in this libfabric "
			 "these do: %s. Use one of them (--provider), or drop --use_cuda. '%s' offers: "
			 "%s", c->o->provider, with, c->o->provider, offer);
	return -ENOTSUP;
}

/* fi_getinfo found nothing: is the provider unknown, or does it lack what
 * the test needs? Either is a usage error (exit 2) with the fix. */
static int explain_nodata(const struct gd_ofi_cfg *c)
{
	struct fi_info *h = make_hints(c, false), *all = NULL;
	char offer[512];
	int ret = h ? gd_fi_getinfo(OFI_VERSION, NULL, NULL, 0, h, &all) : -FI_ENOMEM;

	gd_fi_freeinfo(h);
	if (ret || !all) {
		const char *env = getenv("FI_PROVIDER"); /* libfabric offers only its list */

		gd_error("libfabric has no provider '%s'%s%s%s%s usable here: 'fi_info -l' lists the "
			 "providers; %s%s%stry --provider tcp (any machine) or shm (one host)",
			 c->o->provider, c->o->domain[0] ? " with domain " : "", c->o->domain,
			 c->o->fabric_name[0] ? " in fabric " : "", c->o->fabric_name,
			 env ? "FI_PROVIDER=" : "", env ? gd_excerpt(env) : "",
			 env ? " in the environment limits libfabric to its list (unset it or add the "
			       "provider to it); " : "");
		return -EINVAL;
	}
	if (!has_domain(c->o, all, offer, sizeof(offer))) {
		gd_fi_freeinfo(all);
		gd_error("libfabric provider '%s' has no domain '%s' in fabric '%s'; it has: %s "
			 "(fi_info -p %s lists them): fix --domain / --fabric-name", c->o->provider,
			 c->o->domain[0] ? c->o->domain : "(any)",
			 c->o->fabric_name[0] ? c->o->fabric_name : "(any)", offer, c->o->provider);
		return -EINVAL;
	}
	describe_offer(all, offer, sizeof(offer));
	gd_fi_freeinfo(all);
	if (c->hmem)
		return explain_no_hmem(c, offer);
	gd_error("libfabric provider '%s' has no %s endpoint with %s%s for this test; it offers: "
		 "%s. Use another --ep or --provider (shm has atomics on one host)", c->o->provider,
		 gd_ep_type_name(c->o->ep), caps_needed(c),
		 c->alt && c->op != GD_OP_ATOMIC ? " and remote CQ data" : "", offer);
	return -EINVAL;
}

int gd_ofi_setup_err(int fi_ret)
{
	switch (fi_ret) {
	case -FI_ENOMEM:
		return -ENOMEM;
	case -FI_EADDRINUSE:
		return -EADDRINUSE;
	default:
		return -ENODEV;
	}
}

static int ofi_fail(const char *what, const struct gd_ofi *f, int ret)
{
	gd_error("libfabric %s failed on provider %s: %s", what, f->prov, gd_fi_strerror(-ret));
	return gd_ofi_setup_err(ret);
}

static int open_cq(struct gd_ofi *f, struct gd_ofi_dom *d, struct gd_ofi_cq *cq, size_t size)
{
	struct fi_cq_attr a = { .size = size, .format = FI_CQ_FORMAT_DATA,
				.wait_obj = FI_WAIT_NONE };
	int ret = fi_cq_open(d->domain, &a, &cq->cq, NULL);

	if (ret)
		return ofi_fail("fi_cq_open", f, ret);
	cq->cache = calloc(GD_OFI_POLL_CACHE, sizeof(*cq->cache));
	return cq->cache ? 0 : -ENOMEM;
}

/* Each CQ's size, decided here alone: our own queues (every endpoint's -t and
 * -r, and 64 to spare), raised to what the provider may hand one CQ at once:
 * per endpoint a peer's whole transmit queue (tx_attr->size) and our
 * receive queue (rx_attr->size). A target's progress call moves every
 * command of shm's queue into its CQ; past the CQ's size libfabric's util CQ
 * keeps each completion in an overflow list, one calloc each: with 704
 * entries, 96,157-146,411 callocs at the target of 200,000 writes of 8 B
 * with data on the 2-core development VM (s40/speed5's calloc-count.c),
 * which slowed the target further. Capped at GD_OFI_CQ_MAX entries
 * (fi_cq_data_entry: 40 bytes each). */
size_t gd_ofi_cq_depth(const struct gd_ofi_cfg *c, const struct fi_info *info)
{
	size_t ours = (size_t)c->nqp * (c->tx_depth + c->rx_depth) + 64;
	size_t prov = (size_t)c->nqp * (info->tx_attr->size + info->rx_attr->size) + 64;

	if (prov > GD_OFI_CQ_MAX)
		prov = GD_OFI_CQ_MAX;
	return ours > prov ? ours : prov;
}

static int open_domain(struct gd_ofi *f, struct gd_ofi_dom *d)
{
	const struct gd_ofi_cfg *c = &f->cfg;
	struct fi_av_attr av = { .type = FI_AV_TABLE, .count = c->nqp };
	size_t depth = gd_ofi_cq_depth(c, f->info);
	int ret = fi_domain(f->fabric, f->info, &d->domain, NULL);

	if (ret)
		return ofi_fail("fi_domain", f, ret);
	ret = open_cq(f, d, &d->scq, depth);
	ret = ret ?: open_cq(f, d, &d->rcq, depth);
	if (ret || f->info->ep_attr->type != FI_EP_RDM)
		return ret;
	ret = fi_av_open(d->domain, &av, &d->av, NULL);
	return ret ? ofi_fail("fi_av_open", f, ret) : 0;
}

static int open_domains(struct gd_ofi *f)
{
	int ret = gd_fi_fabric(f->info->fabric_attr, &f->fabric, NULL);

	if (ret)
		return ofi_fail("fi_fabric", f, ret);
	for (uint32_t t = 0; !ret && t < f->ndom; t++)
		ret = open_domain(f, &f->dom[t]);
	return ret;
}

/* The first entry with the --domain and --fabric-name asked (libfabric 1.17's
 * layered tcp;ofi_rxm ignores the domain name of the hints). */
static int pick_info(struct gd_ofi *f, struct fi_info *all)
{
	const struct gd_fabric_opts *o = f->cfg.o;

	for (struct fi_info *i = all; i; i = i->next) {
		if ((o->domain[0] && strcmp(i->domain_attr->name, o->domain)) ||
		    (o->fabric_name[0] && strcmp(i->fabric_attr->name, o->fabric_name)))
			continue;
		f->info = gd_fi_dupinfo(i);
		gd_fi_freeinfo(all);
		return f->info ? 0 : -FI_ENOMEM;
	}
	gd_fi_freeinfo(all);
	return -FI_ENODATA;
}

int gd_ofi_open(struct gd_ofi *f, const struct gd_ofi_cfg *c)
{
	struct fi_info *h, *all = NULL;
	int ret;

	memset(f, 0, sizeof(*f));
	f->cfg = *c;
	ret = gd_ofi_lib_require();
	if (ret)
		return ret;
	h = make_hints(c, true);
	if (!h)
		return -ENOMEM;
	ret = gd_fi_getinfo(OFI_VERSION, NULL, NULL, 0, h, &all);
	gd_fi_freeinfo(h);
	if (!ret)
		ret = pick_info(f, all);
	if (ret == -FI_ENODATA || (!ret && !f->info))
		return explain_nodata(c);
	if (ret) {
		gd_error("libfabric fi_getinfo for provider %s failed: %s", c->o->provider,
			 gd_fi_strerror(-ret));
		return -EIO;
	}
	snprintf(f->prov, sizeof(f->prov), "%s", f->info->fabric_attr->prov_name);
	f->manual = f->info->domain_attr->data_progress != FI_PROGRESS_AUTO;
	snprintf(f->fabric_name, sizeof(f->fabric_name), "%s", f->info->fabric_attr->name);
	snprintf(f->domain_name, sizeof(f->domain_name), "%s", f->info->domain_attr->name);
	f->virt_addr = (f->info->domain_attr->mr_mode & (FI_MR_VIRT_ADDR | FI_MR_BASIC)) != 0;
	f->inject_size = f->info->tx_attr->inject_size;
	f->rx_size = f->info->rx_attr->size;
	f->ep = calloc(c->nqp, sizeof(*f->ep));
	f->dest = calloc(c->nqp, sizeof(*f->dest));
	f->dom = calloc(domains_of(c), sizeof(*f->dom));
	if (!f->ep || !f->dest || !f->dom)
		return -ENOMEM;
	f->ndom = domains_of(c);
	for (uint32_t t = 0; t < f->ndom; t++)
		f->dom[t].scq.placed_above = gd_ofi_placed_above(f);
	return open_domains(f);
}

struct gd_ofi_dom *gd_ofi_dom_of(struct gd_ofi *f, uint32_t i)
{
	return &f->dom[i % f->ndom];
}

struct gd_ofi_cq *gd_ofi_ep_scq(struct gd_ofi *f, uint32_t i)
{
	return &gd_ofi_dom_of(f, i)->scq;
}

/* Every send CQ of a side that waits (e: room for 4 dropped entries) */
static void progress_scqs(struct gd_ofi *f, struct fi_cq_data_entry *e)
{
	for (uint32_t t = 0; t < f->ndom; t++)
		if (f->dom[t].scq.cq)
			fi_cq_read(f->dom[t].scq.cq, e, 4);
}

/* One domain's progress: its send completions dropped, its receives left
 * (a read of no entry still drives progress). */
static void progress_dom(struct gd_ofi_dom *d, struct fi_cq_data_entry *e)
{
	if (d->scq.cq)
		fi_cq_read(d->scq.cq, e, 4);
	if (d->rcq.cq)
		fi_cq_read(d->rcq.cq, e, 0);
}

/* Whether a paced side (gd_ofi_pace_passive) skips this call: it comes sooner
 * than pace_ns after its caller's last one (last: the side's, or its progress
 * thread's own). The one rule of the pacing, per thread that progresses. */
static bool paced_out(const struct gd_ofi *f, uint64_t *last)
{
	uint64_t pace = __atomic_load_n(&f->pace_ns, __ATOMIC_RELAXED), now;

	if (!pace)
		return false;
	now = gd_now_ns();
	if (now - *last < pace)
		return true;
	*last = now;
	return false;
}

/* A side waiting on the side channel drives the provider. A paced side
 * (gd_ofi_pace_passive) skips the calls that come sooner than pace_ns after
 * the last one: its side channel's loop still spins. Send completions are
 * dropped (a passive side posts none of its own; an active one waits here only
 * before its loops or after they drained), receives never: a side that counts
 * them (a send or write-with-imm target) may still wait on the setup barrier
 * when its peer, past that barrier, sends its first message; taking that
 * completion here left the target waiting for it until --timeout (a
 * write-with-imm ping-pong over shm or tcp, the first exchange: 6 of 12 runs
 * on the loaded 2-core machine). While progress threads run
 * (gd_ofi_progress_start) each domain is its thread's: nothing here. */
void gd_ofi_progress(void *ofi)
{
	struct gd_ofi *f = ofi;
	struct fi_cq_data_entry e[4];

	if (f->nprog || paced_out(f, &f->last_ns))
		return;
	for (uint32_t t = 0; t < f->ndom; t++)
		progress_dom(&f->dom[t], e);
}

/* A passive side's progress thread: its domain alone, paced as the side. */
static void *progress_main(void *arg)
{
	struct gd_ofi_prog *p = arg;
	struct gd_ofi *f = p->f;
	struct gd_ofi_dom *d = &f->dom[p->index];
	struct fi_cq_data_entry e[4];
	uint64_t last = 0;

	while (!__atomic_load_n(&f->prog_stop, __ATOMIC_ACQUIRE))
		if (!paced_out(f, &last))
			progress_dom(d, e);
	return NULL;
}

/* The passive side of a run whose initiator posts from N proxy threads, each
 * on its own domain (gd_ofi_dom_of): one thread here cannot keep up with N
 * (shm's target copies every write out of its queue in the progress call;
 * with 4 proxy threads its side-channel wait fell from 29 % to 6.6 % of the
 * samples: the H200, session 44). A thread per domain, signals blocked (the
 * main thread takes them in its side-channel wait). */
int gd_ofi_progress_start(struct gd_ofi *f)
{
	sigset_t all, old;
	uint32_t t;
	int ret = 0;

	if (f->ndom < 2 || f->nprog)
		return 0;
	f->prog = calloc(f->ndom, sizeof(*f->prog));
	if (!f->prog)
		return -ENOMEM;
	__atomic_store_n(&f->prog_stop, 0, __ATOMIC_RELEASE);
	f->nprog = f->ndom;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (t = 0; t < f->ndom; t++) {
		f->prog[t] = (struct gd_ofi_prog){ .f = f, .index = t };
		ret = pthread_create(&f->prog[t].thread, NULL, progress_main, &f->prog[t]);
		f->prog[t].started = !ret;
		if (ret)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!ret) {
		gd_debug("libfabric %s: %u progress threads, one per domain", f->prov, f->nprog);
		return 0;
	}
	gd_error("cannot start the progress thread of libfabric domain %u of %u: %s", t, f->ndom,
		 strerror(ret));
	gd_ofi_progress_stop(f);
	return -ret;
}

/* A progress thread's turn is one fi_cq_read, microseconds when the provider
 * is well: one that has not ended a second after it was told is stuck inside
 * the provider (a shm peer stopped or killed while it held its queue's lock),
 * and waiting longer gains nothing. The survivor of a stopped peer exits
 * within --timeout + this second (tests/fabric/ofi-peer-death.sh: pxy). */
#define OFI_PROGRESS_JOIN_MS 1000u

int gd_ofi_progress_stop(struct gd_ofi *f)
{
	uint32_t wait_ms = OFI_PROGRESS_JOIN_MS;
	struct timespec until;

	if (!f->nprog || f->prog_stuck)
		return f->prog_stuck ? -ETIMEDOUT : 0;
	__atomic_store_n(&f->prog_stop, 1, __ATOMIC_RELEASE);
	until = gd_realtime_in_ms(wait_ms);
	for (uint32_t t = 0; t < f->nprog; t++) {
		if (!f->prog[t].started)
			continue;
		if (pthread_timedjoin_np(f->prog[t].thread, NULL, &until)) {
			gd_error("the progress thread of libfabric domain %u (provider %s) did not stop "
				 "within %g s of being told to: it is stuck inside the provider (a shm "
				 "peer killed while it held its queue's lock leaves it spinning); the "
				 "domains are left open and the tool exits", t, f->prov, wait_ms / 1e3);
			f->prog_stuck = true;
			return -ETIMEDOUT;
		}
		f->prog[t].started = false;
	}
	free(f->prog);
	f->prog = NULL;
	f->nprog = 0;
	return 0;
}

/* An active side between its loops (a size done, the peer's results, the
 * barrier): its own operations are all complete (the loops drain on a
 * signalled boundary), but the peer's may still need this side's progress
 * (tcp's target moves the bytes of the peer's writes; -b). Only the send CQ
 * is read: receives that arrive stay in theirs for the loop to count.
 * Not while the proxy's threads own the domains (cfg.threaded: one thread or
 * several): the side channel also waits while they run (a peer's error message
 * read in pieces, gd_oob_await_peer), and a domain is its thread's alone
 * (FI_THREAD_DOMAIN; a read here would also take completions the thread waits
 * for); the proxy has no -b, so no peer operation needs this side's progress. */
void gd_ofi_progress_tx(void *ofi)
{
	struct gd_ofi *f = ofi;
	struct fi_cq_data_entry e[4];

	if (!f->cfg.threaded)
		progress_scqs(f, e);
}

/* The passive side of an RMA bandwidth test over shm calls the provider's
 * progress every OFI_PASSIVE_PACE_NS, not continuously.
 * - Why: shm's initiator moves an RMA itself (CMA: its own process_vm_writev
 *   or readv) while holding the target's region lock, and signals the target
 *   after each; every progress call of a signalled target takes that lock
 *   twice. With a target progressing continuously, the initiator spent ~20%
 *   of its time in pthread_spin_lock (perf, write 8 B, the 2-core dev
 *   machine); fi_rma_bw's target is busy with its own loop and seldom
 *   progresses. Paced, shm writes of 8 B on the H100 went from 0.85 to 1.06
 *   of fi_rma_bw's rate, 4 KiB from 1.23 to 1.71 (doc/perf-data/history.md, stop 31).
 * - What still waits on the target: the signalled write's delivery
 *   acknowledgement (one per -Q writes, or per MiB), each served within the
 *   pace while the initiator's window (-t) holds far longer than that.
 * - Not paced: atomics and GPU memory (the target serves each operation),
 *   messages above inject_size (where CMA is off, shm's segmented protocol
 *   needs the target every segment), latency tests (one operation in flight),
 *   and every other provider (tcp's target moves every byte). */
#define OFI_PASSIVE_PACE_NS 10000ull

void gd_ofi_pace_passive(struct gd_ofi *f, uint64_t size)
{
	bool rma = f->cfg.op == GD_OP_WRITE || f->cfg.op == GD_OP_READ;
	bool paced = rma && !f->cfg.hmem && size <= f->inject_size && !strcmp(f->prov, "shm");

	/* read by the progress threads while they run (gd_ofi_progress_start) */
	__atomic_store_n(&f->pace_ns, paced ? OFI_PASSIVE_PACE_NS : 0, __ATOMIC_RELAXED);
}

/* When a signalled write needs no FI_DELIVERY_COMPLETE to mean what a verbs
 * completion means (the bytes are in the target's memory; fabric_ofi.c,
 * gd_ofi_post_flags, says why a write asks it): shm (libfabric 1.17 to 1.22,
 * smr_generic_rma and smr_select_proto) above its inject size, host memory.
 * - Why: every path shm takes there completes only after the bytes are placed:
 *   the initiator's own CMA write (smr_rma_fast: process_vm_writev, then the
 *   completion), or the target's copy followed by its response (the iov, SAR
 *   and mmap protocols). Only inline and inject (up to the inject size)
 *   complete when the command is queued, before the target has copied it.
 * - What asking delivery cost: it forces the target-served iov protocol, so
 *   every signalled write waits until the peer's CPU copies it. With -b the
 *   peer is busy in its own loop: 64 KiB writes -b ran 1.7-7.6 GB/s against
 *   12.4-15.5 GB/s without the flag, fi_rma_bw -o write 10.3-12.1 GB/s (H200,
 *   libfabric 1.17 for both; doc/perf-data/2026-11-29-s37-lfl/).
 * - Not: other providers (tcp's transmit completion means the socket took
 *   the bytes: --validate saw the old ones), GPU memory (shm's IPC path). */
uint64_t gd_ofi_placed_above(const struct gd_ofi *f)
{
	if (strcmp(f->prov, "shm") || f->cfg.hmem)
		return UINT64_MAX;
	return f->inject_size;
}

/* The buffer registered in every domain: each domain's descriptor and key
 * belong to its endpoints alone. Without FI_MR_PROV_KEY domain t asks key
 * OFI_MR_KEY + t (domain 0 the key one domain always had): a blob or request
 * that carried another domain's key is then a wrong key, not one that
 * happens to be equal (tests/fabric/test_ofi_domains asserts it). */
int gd_ofi_reg(struct gd_ofi *f, void *buf, size_t len)
{
	uint64_t access = FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct fi_mr_attr a = { .mr_iov = &iov, .iov_count = 1, .access = access,
				.iface = f->cfg.hmem ? FI_HMEM_CUDA : FI_HMEM_SYSTEM };
	int ret = 0;

	if (f->cfg.hmem)
		a.device.cuda = f->cfg.cuda_device;
	for (uint32_t t = 0; !ret && t < f->ndom; t++) {
		struct gd_ofi_dom *d = &f->dom[t];

		a.requested_key = OFI_MR_KEY + t;
		ret = fi_mr_regattr(d->domain, &a, 0, &d->mr);
		d->desc = ret ? NULL : fi_mr_desc(d->mr);
		d->key = ret ? 0 : fi_mr_key(d->mr);
	}
	if (ret) {
		gd_error("libfabric cannot register %zu bytes of %s memory on provider %s: %s", len,
			 f->cfg.hmem ? "GPU" : "host", f->prov, gd_fi_strerror(-ret));
		return -ENOMEM;
	}
	f->mr_base = (uintptr_t)buf;
	return 0;
}

static int bind_ep(struct gd_ofi *f, uint32_t i)
{
	struct fid_ep *ep = f->ep[i];
	struct gd_ofi_dom *d = gd_ofi_dom_of(f, i);
	int ret = fi_ep_bind(ep, &d->scq.cq->fid, FI_TRANSMIT | FI_SELECTIVE_COMPLETION);

	ret = ret ?: fi_ep_bind(ep, &d->rcq.cq->fid, FI_RECV);
	if (!ret && d->av)
		ret = fi_ep_bind(ep, &d->av->fid, 0);
	if (!ret && f->eq)
		ret = fi_ep_bind(ep, &f->eq->fid, 0);
	ret = ret ?: fi_enable(ep);
	return ret ? ofi_fail("endpoint setup (fi_ep_bind, fi_enable)", f, ret) : 0;
}

static int open_pep(struct gd_ofi *f)
{
	int ret = fi_passive_ep(f->fabric, f->info, &f->pep, NULL);

	ret = ret ?: fi_pep_bind(f->pep, &f->eq->fid, 0);
	ret = ret ?: fi_listen(f->pep);
	return ret ? ofi_fail("listening (fi_passive_ep, fi_listen)", f, ret) : 0;
}

/* libfabric's shm provider names an endpoint's region in /dev/shm after the
 * process id ("PID:UID:N"); finding a region of that name whose recorded
 * owner is alive, fi_enable fails with EBUSY. A process killed before it
 * closed its endpoints (SIGKILL, a crash) leaves its regions (16 MiB of tmpfs
 * RAM each, issue 30 D28), and one whose pid this process now has (pids wrap
 * within one long test run) is taken for a live one. Before its first shm
 * endpoint, this process removes the regions of this user (the name's UID and
 * the file's owner) whose process is gone (kill(PID, 0): ESRCH) or is this
 * process (none of its own exists yet); a live process's regions, another
 * user's, and names of another form are left alone. Once per process. */
static bool shm_stale(const char *name, int dfd)
{
	int pid = -1, n = -1;
	unsigned uid, idx;
	struct stat st;

	if (sscanf(name, "%d:%u:%u%n", &pid, &uid, &idx, &n) != 3 || n != (int)strlen(name) ||
	    pid <= 0 || uid != getuid())
		return false;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
	    st.st_uid != getuid())
		return false;
	return pid == getpid() || (kill(pid, 0) && errno == ESRCH);
}

static void shm_clear_stale(void)
{
	static bool done;
	struct dirent *e;
	DIR *d;

	if (done)
		return;
	done = true;
	d = opendir("/dev/shm");
	if (!d)
		return;
	while ((e = readdir(d)))
		if (shm_stale(e->d_name, dirfd(d)) && shm_unlink(e->d_name) == 0)
			gd_info("removed /dev/shm/%s: a libfabric shm region of a dead process%s",
				e->d_name, atoi(e->d_name) == getpid() ? " that had this pid" : "");
	closedir(d);
}

/* Resident bytes of this process (/proc/self/statm), 0 if unknown. */
static uint64_t rss_bytes(void)
{
	unsigned long size = 0, res = 0;
	FILE *fp = fopen("/proc/self/statm", "r");

	if (fp) {
		if (fscanf(fp, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(fp);
	}
	return (uint64_t)res * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* MemAvailable of /proc/meminfo in bytes, 0 if unknown. */
static uint64_t mem_available(void)
{
	unsigned long long kb = 0;
	char line[128];
	FILE *fp = fopen("/proc/meminfo", "r");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(fp);
	return (uint64_t)kb * 1024;
}

/*
 * -q N over libfabric is N endpoints, and one endpoint's cost is the
 * provider's (tcp's ofi_rxm allocates and zeroes ~17 MB in fi_enable; issue 30
 * D8: -q 16384 grew to 4.6 GB in 30 s on its way to ~280 GB). The second
 * endpoint's growth of this process's resident memory, times N, is the
 * estimate: above 3/4 of MemAvailable the run is refused (exit 3) naming -q,
 * the estimate and the -q that fits, before the rest are taken.
 */
static int check_ep_memory(const struct gd_ofi *f, uint64_t one)
{
	uint64_t avail = mem_available(), budget = avail / 4 * 3, need;

	if (!one || !avail || f->cfg.nqp < 2)
		return 0;
	need = one * f->cfg.nqp;
	if (need <= budget)
		return 0;
	gd_error("-q %u over libfabric provider %s needs about %.1f GiB: each endpoint took %.1f MiB "
		 "here, and %.1f GiB is available (MemAvailable): lower -q to %llu or less", f->cfg.nqp,
		 f->prov, (double)need / (1ull << 30), (double)one / (1 << 20),
		 (double)avail / (1ull << 30), (unsigned long long)(budget / one ? budget / one : 1));
	return -ENOMEM;
}

/* The endpoints, each in its domain (gd_ofi_dom_of); the cost of one is the
 * growth of the second one of domain 0 (the first one's holds the provider's
 * one-time setup too, and so does every other domain's first). */
int gd_ofi_create_eps(struct gd_ofi *f)
{
	uint32_t second = f->ndom < f->cfg.nqp ? f->ndom : 1;
	uint64_t rss0 = 0;
	bool msg = f->info->ep_attr->type == FI_EP_MSG;
	int ret;

	if (!strcmp(f->prov, "shm"))
		shm_clear_stale();

	if (msg) {
		struct fi_eq_attr ea = { .size = 64, .wait_obj = FI_WAIT_UNSPEC };

		ret = fi_eq_open(f->fabric, &ea, &f->eq, NULL);
		if (ret)
			return ofi_fail("fi_eq_open", f, ret);
		if (f->cfg.server)
			return open_pep(f); /* the endpoints come with the connection requests */
	}
	for (uint32_t i = 0; i < f->cfg.nqp; i++) {
		uint64_t rss1;

		rss0 = i == second ? rss_bytes() : rss0;
		ret = fi_endpoint(gd_ofi_dom_of(f, i)->domain, f->info, &f->ep[i], NULL);
		if (ret)
			return ofi_fail("fi_endpoint", f, ret);
		ret = bind_ep(f, i);
		if (ret)
			return ret;
		rss1 = i == second ? rss_bytes() : 0;
		if (i == second && (ret = check_ep_memory(f, rss1 > rss0 ? rss1 - rss0 : 0)))
			return ret;
	}
	return 0;
}

/* An endpoint bound to the unspecified address gets the side channel's. */
static void fix_any(const struct gd_ofi *f, uint8_t *addr, size_t len)
{
	struct sockaddr_in a, s;

	/* the name sits unaligned in the wire record: copy, never cast */
	if (len < sizeof(a))
		return;
	memcpy(&a, addr, sizeof(a));
	memcpy(&s, &f->self, sizeof(s));
	if (a.sin_family == AF_INET && s.sin_family == AF_INET &&
	    a.sin_addr.s_addr == htonl(INADDR_ANY)) {
		a.sin_addr = s.sin_addr;
		memcpy(addr, &a, sizeof(a));
	}
}

int gd_ofi_local_info(struct gd_ofi *f, uint32_t i, uint64_t target, struct gd_wire_conn *info)
{
	size_t len = sizeof(info->fab_addr);
	int ret = f->pep ? fi_getname(&f->pep->fid, info->fab_addr, &len) :
			   fi_getname(&f->ep[i]->fid, info->fab_addr, &len);

	if (ret)
		return ofi_fail("fi_getname", f, ret);
	fix_any(f, info->fab_addr, len);
	info->fab_addr_len = (uint16_t)len;
	info->fab_key = gd_ofi_dom_of(f, i)->key;
	info->qpn = i + 1;
	info->mtu = 4096;
	info->gid_index = -1;
	info->vaddr = f->virt_addr ? target : target - f->mr_base;
	return 0;
}
