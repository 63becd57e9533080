/* remember.c - the console's settings between sessions, see remember.h.
 * What is remembered never writes anything by itself: targets come back
 * marked, and a write still goes through the write-safety check and its
 * typed confirmation (actions.c); no token or override is ever stored. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "config/settings.h"
#include "ui/app.h"
#include "ui/console.h"
#include "ui/remember.h"

/* A results directory shown (played or followed): no setup screen, no
 * targets or form to remember. */
static bool viewing(const struct app *a)
{
	return app_can(a, SOURCE_VIEW_ONLY);
}

static void apply_form(struct app *a, const struct settings *s)
{
	for (unsigned k = 0; k < s->nform; k++)
		for (int i = 0; i < FORM_NFIELDS; i++) {
			struct form_field *f = &a->fm.form[i], tmp = *f;
			if (!f->key || strcmp(f->key, s->form[k].key))
				continue;
			/* as the prompt takes it: only a value opt_set accepts */
			struct spec scratch;
			char err[200];
			spec_init(&scratch);
			snprintf(tmp.val, sizeof(tmp.val), "%s", s->form[k].val);
			if (!opt_set(&scratch, form_key(&tmp), form_value(&tmp), err, sizeof(err)))
				*f = tmp;
		}
}

void remember_load(struct app *a, const struct console_opts *o, char *msg, size_t len)
{
	char dir[512], err[600] = "";
	msg[0] = '\0';
	if (o->no_settings)
		return;
	a->remembered = malloc(sizeof(*a->remembered));
	if (!a->remembered)
		return;
	settings_init(a->remembered);
	int rc = settings_dir(dir, sizeof(dir));
	if (!rc)
		rc = settings_load(dir, a->remembered, err, sizeof(err));
	if (rc) {
		if (rc == -ENOENT)
			return;
		/* a file we cannot use is left as it is: not overwritten on quit */
		snprintf(msg, len, "settings ignored (and not saved): %.200s", err);
		free(a->remembered);
		a->remembered = NULL;
		return;
	}
	const struct settings *s = a->remembered;
	if (!o->theme && s->theme[0] && app_set_theme(a, -1, s->theme, err, sizeof(err)))
		snprintf(msg, len, "settings: %.200s", err);
	if (s->log >= 0)
		a->view.log = s->log;
	if (s->mbps >= 0)
		a->view.mbps = s->mbps;
	if (s->steady >= 0)
		a->st.steady_on = s->steady;
	if (s->span >= 0)
		a->view.span = s->span;
	if (s->round_s >= 1 && !(o->round_s > 0))
		a->st.round_s = s->round_s;
	/* a results directory shown (played or followed): no setup screen */
	if (viewing(a))
		return;
	apply_form(a, s);
	if (o->ntargets || o->plan || a->fl.demo)
		return;
	/* the last targets that still exist, marked again - and said so */
	unsigned n = 0;
	bool say = !msg[0]; /* a warning about the file comes first */
	for (unsigned i = 0; i < s->ntargets; i++) {
		struct stat st;
		if (!stat(s->targets[i], &st) && !app_add_target(a, s->targets[i]) && say) {
			size_t used = strlen(msg);
			if (!n)
				snprintf(msg, len, "marked as last time: %s", s->targets[i]);
			else if (used + 2 < len)
				snprintf(msg + used, len - used, ", %s", s->targets[i]);
			n++;
		}
	}
	if (n && say) {
		size_t used = strlen(msg);
		if (used + 2 < len)
			snprintf(msg + used, len - used, " (Space unmarks)");
	}
}

int remember_save(struct app *a, char *err, size_t len)
{
	char dir[512];
	struct settings *s = a->remembered;
	if (!s || a->fl.demo)
		return 0;
	int rc = settings_dir(dir, sizeof(dir));
	if (rc) {
		snprintf(err, len, "no settings directory ($XDG_CONFIG_HOME, $HOME)");
		return rc;
	}
	s->theme[0] = '\0';
	if (a->look.theme_idx >= 0 && a->look.theme_idx < a->look.ntheme)
		snprintf(s->theme, sizeof(s->theme), "%s", a->look.theme_names[a->look.theme_idx]);
	s->log = a->view.log;
	s->mbps = a->view.mbps;
	s->steady = a->st.steady_on;
	s->span = a->view.span >= 0 ? a->view.span : 0;
	s->round_s = a->st.round_s;
	if (!viewing(a)) {
		s->ntargets = 0;
		for (int i = 0; i < a->dev.ndrows && s->ntargets < SETTINGS_MAX_TARGETS; i++)
			if (a->dev.drows[i].marked)
				snprintf(s->targets[s->ntargets++], SETTINGS_PATH_MAX, "%s",
					 a->dev.drows[i].path);
		s->nform = 0;
		for (int i = 0; i < FORM_NFIELDS && s->nform < SETTINGS_MAX_FORM; i++) {
			if (!a->fm.form[i].key)
				continue;
			snprintf(s->form[s->nform].key, sizeof(s->form[0].key), "%s",
				 a->fm.form[i].key);
			snprintf(s->form[s->nform++].val, SETTINGS_VAL_MAX, "%s",
				 a->fm.form[i].val);
		}
	}
	return settings_save(dir, s, err, len);
}
