/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A run's parameters spelled back as its tool's command line (bench_opts.h,
 * gd_bench_args): each parameter of the list (bench_params.c) that differs
 * from the tool's default, by the option row the tool's own tables hold for it.
 */
#include "bench_opts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"

/* The row of long option name in cmd's tables, NULL when the tool has none (perftest's
 * refused rows, help NULL, are none). */
static const struct gd_opt *tool_opt(const struct gd_cmd *cmd, const char *name, size_t n)
{
	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++)
			if (o->help && strlen(o->name) == n && !strncmp(o->name, name, n))
				return o;
	return NULL;
}

/* The value as the option takes it back (the list's setters in bench_params.c). */
static void value_word(const struct gd_param *d, const struct gd_bench_params *p, char *w,
		       size_t len)
{
	uint64_t v = gd_param_get(p, d), floor = GD_MAX(d->min, d->umin);
	double x;

	switch (d->type) {
	case GD_PT_STR:
		snprintf(w, len, "%s", (const char *)p + d->off);
		return;
	case GD_PT_ENUM: /* below the option's floor no word names it: "?", which the tool refuses */
		snprintf(w, len, "%s", v < floor ? "?" : d->choices ? d->choices[v - floor] :
			 d->name((unsigned)v));
		return;
	case GD_PT_DOUBLE: /* the shortest spelling strtod reads back to the same value */
		memcpy(&x, (const char *)p + d->off, sizeof(x));
		for (int prec = 6; prec <= 17; prec++) {
			snprintf(w, len, "%.*g", prec, x);
			if (strtod(w, NULL) == x)
				return;
		}
		return;
	case GD_PT_INT:
		if (d->len == sizeof(int32_t))
			v = (uint64_t)(int64_t)(int32_t)v;
		if (d->word && v == d->min)
			snprintf(w, len, "%s", d->word);
		else
			snprintf(w, len, "%lld", (long long)(int64_t)v);
		return;
	default:
		if (d->word && v == d->min)
			snprintf(w, len, "%s", d->word);
		else
			snprintf(w, len, "%llu", (unsigned long long)(v / (d->scale ? d->scale : 1)));
	}
}

/* " -x VALUE", " --name VALUE" or " -x" (an option without a value) of row o for parameter d
 * into buf, VALUE as one shell word (gd_shell_word): the length written, or -ENOSPC. */
static int spell(const struct gd_opt *o, const struct gd_param *d,
		 const struct gd_bench_params *p, char *buf, size_t len)
{
	char v[256], w[1024]; /* a spec's string as one shell word: 'verbs;ofi_rxm' */
	int k;

	w[0] = 0;
	if (o->arg != GD_NO_ARG) {
		value_word(d, p, v, sizeof(v));
		if (gd_shell_word(v, w, sizeof(w)) < 0)
			return -ENOSPC;
	}
	k = o->letter ? snprintf(buf, len, " -%c%s%s", o->letter, *w ? " " : "", w) :
		snprintf(buf, len, " --%s%s%s", o->name, *w ? " " : "", w);
	return k < 0 || (size_t)k >= len ? -ENOSPC : k;
}

/* Whether d goes on the line: an option of the command line (not HOST, the operand) whose
 * value the run changed from the tool's default, or whose given bit it set. */
static bool differs(const struct gd_param *d, const struct gd_bench_params *p,
		    const struct gd_bench_params *def)
{
	if (!d->opt || d->opt[0] != '-')
		return false;
	if (d->type == GD_PT_FLAG)
		return gd_param_get(p, d) && !gd_param_get(def, d);
	return (d->given && (p->given & d->given)) ||
	       memcmp((const char *)p + d->off, (const char *)def + d->off, d->len);
}

/* The list's option of a parameter the run set that the tool's tables have no row for. */
static const char *unspellable(const struct gd_cmd *cmd, const struct gd_bench_params *p,
			       const struct gd_bench_params *def)
{
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];
		const char *l = d->opt ? strstr(d->opt, "--") : NULL;

		if (differs(d, p, def) && (!l || !tool_opt(cmd, l + 2, strlen(l + 2))))
			return d->opt;
	}
	return NULL;
}

/* In the order of the tool's own tables (its --help): each row's parameter that differs. */
static int spell_rows(const struct gd_cmd *cmd, const struct gd_bench_params *p,
		      const struct gd_bench_params *def, char *buf, size_t len)
{
	size_t n = 0;

	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++) {
			const struct gd_param *d = o->help ? gd_param_by_option(o->name) : NULL;
			int k;

			if (!d || !differs(d, p, def))
				continue;
			if ((k = spell(o, d, p, buf + n, len - n)) < 0)
				return k;
			n += (size_t)k;
		}
	return (int)n;
}

int gd_bench_args(const struct gd_bench_params *p, char *buf, size_t len, const char **bad)
{
	const struct gd_cmd *cmd = gd_bench_cmd(p->op, p->kind);
	struct gd_bench_params *def = malloc(sizeof(*def));
	int n, k = -ENOSPC;

	if (!cmd || !def || !len) {
		free(def);
		return -ENOMEM;
	}
	gd_bench_params_defaults(def, p->op, p->kind);
	*bad = unspellable(cmd, p, def);
	n = snprintf(buf, len, "%s", gd_bench_tool_name(p->op, p->kind));
	if (*bad)
		k = -ENOENT;
	else if (n >= 0 && (size_t)n < len &&
		 (k = spell_rows(cmd, p, def, buf + n, len - (size_t)n)) >= 0)
		k += n;
	free(def);
	return k;
}
