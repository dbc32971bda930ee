package daemon

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"pbemd/store"
)

// What one sender's commands may make the daemon mail to others.
//
// A command that changes a game (the GM's PAUSE, RESUME, DEADLINE,
// REPLACE …, a player's absence) is announced to every player, every
// observer and the GM: one mail each. Unbounded, a leaked GM token or a
// runaway client sending hundreds of commands sends every player hundreds
// of mails. So the announcements one sender's commands cause share a
// budget: fanoutBudget mails per fanoutWindow, every recipient's mail
// counted (the first announcement of a window always goes, however many
// it reaches). Past the budget the commands are still carried out (a GM
// must be able to steer the game) but their announcements are held:
//
//   - the latest of each kind replaces the earlier ones (announceKinds: a
//     game paused and resumed a hundred times is announced as resumed);
//     other announcements are kept in order, at most maxHeld of them;
//   - the GM is told once, when the first is held, that the players were
//     not told, and when they will be;
//   - once the sender's window is over, the next tick (or the game's next
//     announcement) sends each recipient one mail with all that was held.
//
// The budget and what is held live in the store, in the transaction of
// the mail that caused them: a mail that does not land counts nothing,
// and a restart forgets nothing.
const (
	fanoutBudget = 100
	fanoutWindow = time.Hour
	maxHeld      = 20
)

// announceKinds are the announcements of which only the latest counts,
// by subject; subjects of one kind share it.
var announceKinds = map[string]string{
	"Game paused":         "pause",
	"Game resumed":        "pause",
	"New deadline":        "deadline",
	"House rules changed": "rules",
	"Draw prize":          "prize",
	"Pace changed":        "pace",
}

// heldNews is what a game's announcements held back are waiting for.
type heldNews struct {
	Since   time.Time  `json:"since"`   // when the first was held
	Due     time.Time  `json:"due"`     // when they may go
	Items   []heldItem `json:"items"`   // in the order they were last made
	Dropped int        `json:"dropped"` // the oldest, past maxHeld
	Senders []string   `json:"senders"` // whose budgets ran out
}

type heldItem struct {
	Kind    string    `json:"kind"`
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	Skip    []string  `json:"skip,omitempty"` // powers that do not get it
	At      time.Time `json:"at"`
}

const heldIndexKey = "announce-held" // the games with announcements held

func heldKey(game string) string { return "announce-held:" + game }

// fanoutKey names the budget of the sender of mc: the game's GM (by
// token or password alike), a player of the game, or the address.
func (mc *mailCtx) fanoutKey() string {
	switch {
	case mc.gm && mc.game != nil:
		return "gm:" + mc.game.Name
	case mc.player != nil && mc.game != nil:
		return "player:" + mc.game.Name + ":" + mc.player.Address
	}
	return "addr:" + mc.sender
}

// announce tells everyone in the mail's game, unless the GM said SILENT,
// within the sender's budget. The diplomats of the powers named in
// skipPowers get nothing (they were told in their own words).
func (mc *mailCtx) announce(subject, text string, skipPowers ...string) error {
	if mc.silent || mc.game == nil {
		return nil
	}
	return mc.fanOut(subject, text, skipPowers)
}

// fanOut announces subject and text to the game of mc (but the powers in
// skip), within the sender's budget, or holds it.
func (mc *mailCtx) fanOut(subject, text string, skip []string) error {
	d, tx, g := mc.d, mc.tx, mc.game
	held, err := loadHeld(tx.Tx, g.Name)
	if err != nil {
		return err
	}
	if held != nil && !mc.now.Before(held.Due) {
		// Older news goes first, so nothing overtakes it.
		if err := d.sendHeld(tx, g.Name, held); err != nil {
			return err
		}
		held = nil
	}
	key := "fanout:" + mc.fanoutKey()
	start, used := budgetUsed(tx.Meta(key), mc.now)
	if held == nil && used < fanoutBudget {
		skipAddr := map[string]bool{}
		for _, p := range g.Players {
			if !p.Left && slices.Contains(skip, p.Power) {
				skipAddr[p.Address] = true
			}
		}
		first := len(tx.mails)
		if err := d.publish(tx, g, fmt.Sprintf("[%s] %s", g.Name, subject), text, skipAddr); err != nil {
			return err
		}
		used += len(tx.mails) - first
		return tx.PutMeta(key, fmt.Sprintf("%d %d", start.UnixNano(), used))
	}
	// Held: with the others of the game, until the window of the sender
	// over its budget ends (a sender within its budget waits behind
	// what is held, so that nothing overtakes it, and moves nothing).
	first := held == nil
	if first {
		held = &heldNews{Since: mc.now}
	}
	held.add(heldItem{Kind: kindOf(subject), Subject: subject, Text: text, Skip: skip, At: mc.now})
	if due := start.Add(fanoutWindow); used >= fanoutBudget && due.After(held.Due) {
		held.Due = due
	}
	if used >= fanoutBudget && !slices.Contains(held.Senders, mc.fanoutKey()) {
		held.Senders = append(held.Senders, mc.fanoutKey())
	}
	if err := putHeld(tx.Tx, g.Name, held); err != nil {
		return err
	}
	mc.log.Info("announcement held: the sender's commands used up their budget of mails", "sender", mc.fanoutKey(), "subject", subject, "held", len(held.Items), "due", held.Due)
	if !first {
		return nil
	}
	who := "Your commands"
	if !mc.gm {
		who = fmt.Sprintf("The commands of %s", mc.sender)
	}
	return d.alertGM(tx, g, "Announcements held back",
		fmt.Sprintf("%s to %s came faster than I announce them to the players one by one (at most %d mails from one sender's commands within %s). "+
			"I carried them out, but the players, observers and you are not told of each from now on: at %s (or at the game's first announcement after it) each gets one mail with what was held back, only the latest of each kind (paused or resumed, the deadline, …).\n\n"+
			"Nothing needs doing. SILENT as the first line of a mail announces nothing at all. If you did not send these commands, someone else has your GM reply address: look at the game (STATUS) and tell the site's GM.",
			who, g.Name, fanoutBudget, humanDuration(fanoutWindow), d.showTime(held.Due, nil)))
}

// budgetUsed reads a budget record ("<start ns> <mails>") at now: the
// start of the current window and the mails counted in it.
func budgetUsed(v string, now time.Time) (time.Time, int) {
	f := strings.Fields(v)
	if len(f) == 2 {
		ns, err1 := strconv.ParseInt(f[0], 10, 64)
		n, err2 := strconv.Atoi(f[1])
		start := time.Unix(0, ns)
		if err1 == nil && err2 == nil && !now.Before(start) && now.Sub(start) < fanoutWindow {
			return start, n
		}
	}
	return now, 0
}

func kindOf(subject string) string {
	if k, ok := announceKinds[subject]; ok {
		return k
	}
	return "subject:" + subject
}

// add holds one more announcement: the latest of a kind replaces the
// earlier ones of announceKinds; at most maxHeld are kept.
func (h *heldNews) add(it heldItem) {
	if !strings.HasPrefix(it.Kind, "subject:") {
		h.Items = slices.DeleteFunc(h.Items, func(o heldItem) bool { return o.Kind == it.Kind })
	}
	h.Items = append(h.Items, it)
	if over := len(h.Items) - maxHeld; over > 0 {
		h.Items = slices.Delete(h.Items, 0, over)
		h.Dropped += over
	}
}

func loadHeld(tx *store.Tx, game string) (*heldNews, error) {
	v := tx.Meta(heldKey(game))
	if v == "" {
		return nil, nil
	}
	var h heldNews
	if err := json.Unmarshal([]byte(v), &h); err != nil {
		return nil, fmt.Errorf("announcements held for %s: %w", game, err)
	}
	return &h, nil
}

func putHeld(tx *store.Tx, game string, h *heldNews) error {
	names := heldGames(tx)
	if h == nil {
		if err := tx.PutMeta(heldKey(game), ""); err != nil {
			return err
		}
		names = slices.DeleteFunc(names, func(n string) bool { return n == game })
	} else {
		b, err := json.Marshal(h)
		if err != nil {
			return err
		}
		if err := tx.PutMeta(heldKey(game), string(b)); err != nil {
			return err
		}
		if !slices.Contains(names, game) {
			names = append(names, game)
		}
	}
	return tx.PutMeta(heldIndexKey, strings.Join(names, "\n"))
}

func heldGames(tx *store.Tx) []string {
	v := tx.Meta(heldIndexKey)
	if v == "" {
		return nil
	}
	return strings.Split(v, "\n")
}

// sendHeld mails what was held for game, one mail per recipient, and
// forgets it.
func (d *Daemon) sendHeld(tx *txn, game string, h *heldNews) error {
	if err := putHeld(tx.Tx, game, nil); err != nil {
		return err
	}
	g, err := tx.Game(game)
	if err != nil || len(h.Items) == 0 {
		return nil // the game is gone: nobody to tell
	}
	subject := fmt.Sprintf("[%s] %s", g.Name, h.Items[len(h.Items)-1].Subject)
	if len(h.Items) > 1 {
		subject = fmt.Sprintf("[%s] News held back: %d announcements", g.Name, len(h.Items)+h.Dropped)
	}
	text := func(power string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Commands to %s came faster than I announce them one by one, so what they changed since %s was held back and comes in this one mail; where something changed several times, only the latest is told.\n", g.Name, d.showTime(h.Since, nil))
		if h.Dropped > 0 {
			fmt.Fprintf(&b, "(%d older announcements are left out.)\n", h.Dropped)
		}
		n := 0
		for _, it := range h.Items {
			if power != "" && slices.Contains(it.Skip, power) {
				continue
			}
			n++
			fmt.Fprintf(&b, "\n== %s (%s) ==\n%s\n", it.Subject, d.showTime(it.At, nil), strings.TrimRight(it.Text, "\n"))
		}
		if n == 0 {
			return ""
		}
		return b.String()
	}
	for i := range g.Players {
		p := &g.Players[i]
		if p.Left {
			continue
		}
		t := text(p.Power)
		if t == "" {
			continue
		}
		if err := d.send(tx, &Outgoing{To: []string{p.Address}, Subject: subject, Text: t, ReplyToken: p.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
	}
	all := text("")
	for _, o := range g.Observers {
		if err := d.send(tx, &Outgoing{To: []string{o.Address}, Subject: subject, Text: all, ReplyToken: o.Token, Game: g.Name, Phase: g.PhaseID}); err != nil {
			return err
		}
	}
	return d.gmCopy(tx, g, subject, all)
}

// sendHeldDue sends the announcements held whose time has come (Tick).
func (d *Daemon) sendHeldDue(now time.Time) error {
	var due []string
	if err := d.db.View(func(tx *store.Tx) error {
		for _, name := range heldGames(tx) {
			h, err := loadHeld(tx, name)
			if err != nil {
				return err
			}
			if h == nil || !now.Before(h.Due) {
				due = append(due, name)
			}
		}
		return nil
	}); err != nil || len(due) == 0 {
		return err
	}
	return d.update(func(tx *txn) error {
		for _, name := range due {
			h, err := loadHeld(tx.Tx, name)
			if err != nil {
				return err
			}
			if h == nil {
				if err := putHeld(tx.Tx, name, nil); err != nil {
					return err
				}
				continue
			}
			if now.Before(h.Due) {
				continue
			}
			if err := d.sendHeld(tx, name, h); err != nil {
				return err
			}
		}
		return nil
	})
}
