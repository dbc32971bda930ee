package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
	"pbemd/store"
)

// batchMail is one mail of a batch: from a player's address to their
// reply token.
func batchMail(id string, p daemontest.Player, text string) *daemon.Incoming {
	return &daemon.Incoming{MsgID: id, From: p.Addr, Token: p.Token, Subject: "orders", Text: text, Date: daemontest.Start}
}

// acks counts the answers in the outbox by the Message-ID they answer.
func acks(t *testing.T, tb *daemontest.Table) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, m := range tb.Outbox() {
		n[m.Parsed.InReplyTo]++
	}
	return n
}

// batchSets lists the Message-IDs of a game's order sets of its open
// phase, per power, in the order stored.
func batchSets(t *testing.T, tb *daemontest.Table, game string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	g := tb.Game(game)
	if err := tb.DB.View(func(tx *store.Tx) error {
		sets, err := tx.OrderSets(game, g.Phase)
		for _, s := range sets {
			got[s.Power] = append(got[s.Power], s.MsgID)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return got
}

// countCommits counts the store's commits from now on (the hook refuses
// none).
func countCommits(tb *daemontest.Table) *atomic.Int32 {
	var n atomic.Int32
	tb.DB.SetWriteFault(func(store.Commit) error { n.Add(1); return nil })
	return &n
}

// A poll's mails are carried out in order, in one commit for the run of
// mails between two that may need bcrypt: England's later mail replaces
// its earlier one, a mail delivered twice is answered once, and a SIGNON
// is compared against what the mails before it committed.
func TestHandleMailsOneCommitPerBatch(t *testing.T) {
	tb := daemontest.NewWith(t, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
	tb.Create("batch", "standard", "")
	pl := tb.SignUp("batch", standardPowers)
	tb.Outbox()
	en, fr := pl["england"], pl["france"]
	ins := []*daemon.Incoming{
		batchMail("b1@test", en, "F Lon - Nth"),
		batchMail("b2@test", fr, "A Par - Bur"),
		batchMail("b3@test", en, "F Lon - Eng"),
		batchMail("b4@test", fr, "PASSWORD sesame-for-france\nA Par - Pic"),
		batchMail("b5@test", en, "F Lon H"),
		batchMail("b3@test", en, "F Lon - Eng"), // delivered twice
		batchMail("b6@test", fr, "A Par H"),
	}
	commits := countCommits(tb)
	for i, err := range tb.D.HandleMails(context.Background(), ins) {
		if err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
	}
	tb.DB.SetWriteFault(nil)
	// [b1 b2 b3] [b4: PASSWORD, alone] [b5 b3 b6]
	if n := commits.Load(); n != 3 {
		t.Errorf("%d commits for 7 mails, want 3", n)
	}
	got := acks(t, tb)
	for _, id := range []string{"b1@test", "b2@test", "b3@test", "b4@test", "b5@test", "b6@test"} {
		if got[id] != 1 {
			t.Errorf("mail %s answered %d times, want once", id, got[id])
		}
	}
	sets := batchSets(t, tb, "batch")
	if g, w := strings.Join(sets["england"], " "), "b1@test b3@test b5@test"; g != w {
		t.Errorf("England's order sets %s, want %s", g, w)
	}
	if g, w := strings.Join(sets["france"], " "), "b2@test b4@test b6@test"; g != w {
		t.Errorf("France's order sets %s, want %s", g, w)
	}
	// France's new password is the one SIGNON takes now.
	tb.Send("elsewhere@example.test", "", "SIGNON france batch sesame-for-france\nA Par - Gas")
	daemontest.Contains(t, daemontest.One(t, tb.Outbox(), "elsewhere@example.test", "Re:").Text, "A Par - Gas")
}

// A batch whose commit the disk refuses lands nothing; the mails are
// handed over again and each is carried out and answered exactly once.
// A batch whose commit fails is redone mail by mail.
func TestHandleMailsBatchThatFailsToCommit(t *testing.T) {
	tb := daemontest.NewWith(t, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
	tb.Create("fault", "standard", "")
	pl := tb.SignUp("fault", standardPowers)
	tb.Outbox()
	var ins []*daemon.Incoming
	var ids []string
	for i := range 20 {
		p := pl[standardPowers[i%len(standardPowers)]]
		id := fmt.Sprintf("f%d@test", i)
		ids = append(ids, id)
		ins = append(ins, batchMail(id, p, orderVariants[i%len(orderVariants)]))
	}
	full := errors.New("write pbemd.db: no space left on device")

	// The disk refuses every commit: nothing lands, nothing is answered,
	// and every mail is to be handed over again (the first could not be
	// written, the others were not tried so as not to overtake it).
	tb.DB.SetWriteFault(func(store.Commit) error { return full })
	errs := tb.D.HandleMails(context.Background(), ins)
	for i, err := range errs {
		if !errors.Is(err, store.ErrWrite) {
			t.Fatalf("mail %d on a full disk: %v, want store.ErrWrite", i, err)
		}
		if i > 0 && !errors.Is(err, daemon.ErrNotTried) {
			t.Errorf("mail %d after one that could not be written: %v, want ErrNotTried", i, err)
		}
	}
	tb.DB.SetWriteFault(nil)
	if n := len(tb.Outbox()); n != 0 {
		t.Fatalf("%d mails queued by a batch that was not committed", n)
	}
	if sets := batchSets(t, tb, "fault"); len(sets) != 0 {
		t.Fatalf("order sets stored by a batch that was not committed: %v", sets)
	}

	// Handed over again, the batch's commit fails once (an I/O error):
	// the batch is redone mail by mail, one commit each.
	var refused, single atomic.Int32
	tb.DB.SetWriteFault(func(c store.Commit) error {
		if refused.Add(1) == 1 {
			return errors.New("write pbemd.db: input/output error")
		}
		single.Add(1)
		return nil
	})
	for i, err := range tb.D.HandleMails(context.Background(), ins) {
		if err != nil {
			t.Errorf("mail %d after one I/O error: %v", i, err)
		}
	}
	tb.DB.SetWriteFault(nil)
	if single := int(single.Load()); single != len(ins) {
		t.Errorf("%d single commits, want one per mail (%d)", single, len(ins))
	}
	// handed over once more (a crash before the IMAP side learnt of it)
	for i, err := range tb.D.HandleMails(context.Background(), ins) {
		if err != nil {
			t.Errorf("mail %d again: %v", i, err)
		}
	}
	got := acks(t, tb)
	for _, id := range ids {
		if got[id] != 1 {
			t.Errorf("mail %s answered %d times, want once", id, got[id])
		}
	}
	sets := batchSets(t, tb, "fault")
	for k, p := range standardPowers {
		var want []string
		for i := k; i < len(ids); i += len(standardPowers) {
			want = append(want, ids[i])
		}
		if g, w := strings.Join(sets[p], " "), strings.Join(want, " "); g != w {
			t.Errorf("%s's order sets %s, want %s", p, g, w)
		}
	}
}

// A mail whose work fails inside the batch's transaction (its game's
// variant is not compiled into this pbemd) holds no other mail hostage:
// the batch is carried out mail by mail, the others are answered once,
// and the failing one is reported for the fetcher to count.
func TestHandleMailsBadMailHoldsNoOtherHostage(t *testing.T) {
	tb := daemontest.NewWith(t, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
	tb.Create("good", "standard", "")
	good := tb.SignUp("good", standardPowers)
	tb.Create("gone", "standard", "")
	gone := tb.SignUp("gone", standardPowers)
	tb.Outbox()
	// the game was created by a pbemd with a variant this one lacks
	if err := tb.DB.Update(func(tx *store.Tx) error {
		g, err := tx.Game("gone")
		if err != nil {
			return err
		}
		g.Variant = "retired"
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	ins := []*daemon.Incoming{
		batchMail("g1@test", good["england"], "F Lon - Nth"),
		batchMail("x1@test", gone["england"], "F Lon - Nth"),
		batchMail("g2@test", good["france"], "A Par - Bur"),
	}
	errs := tb.D.HandleMails(context.Background(), ins)
	if errs[0] != nil || errs[2] != nil {
		t.Fatalf("good mails: %v, %v", errs[0], errs[2])
	}
	if errs[1] == nil || errors.Is(errs[1], store.ErrWrite) || !strings.Contains(errs[1].Error(), "retired") {
		t.Fatalf("the bad mail: %v, want its own error", errs[1])
	}
	got := acks(t, tb)
	if got["g1@test"] != 1 || got["g2@test"] != 1 || got["x1@test"] != 0 {
		t.Errorf("answers %v, want g1 and g2 once each", got)
	}
}
