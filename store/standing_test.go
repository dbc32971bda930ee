package store

import (
	"errors"
	"reflect"
	"testing"
	"time"
)

func foldOf(lines ...string) Fold {
	f := Fold{Set: true, Lines: lines}
	for range lines {
		f.From = append(f.From, Source{Address: "a@example.org", Received: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	}
	return f
}

// readFolds reads a phase's folds in a transaction of its own.
func readFolds(t *testing.T, db *DB) (map[string]StandingOrders, FoldMark) {
	t.Helper()
	var folds map[string]StandingOrders
	var mark FoldMark
	if err := db.View(func(tx *Tx) (err error) { folds, mark, err = tx.StandingOrders("g", 3); return err }); err != nil {
		t.Fatal(err)
	}
	return folds, mark
}

// TestStandingOrdersKeptByTheTransaction: folds put in a transaction are
// what it reads back at once, as copies, and what later transactions
// read once it commits; a rebuild (replace) forgets the powers it leaves
// out, even those put earlier in the same transaction; deleting the
// phase's versions forgets the folds not yet written; a transaction that
// fails leaves nothing; a read-only one cannot put.
func TestStandingOrdersKeptByTheTransaction(t *testing.T) {
	db := openTest(t)
	en := StandingOrders{All: foldOf("F Lon - Nth", "A Lvp H")}
	fr := StandingOrders{All: foldOf("A Par H"), Holder: "s@example.org", Own: foldOf("A Par H")}
	err := db.Update(func(tx *Tx) error {
		if err := tx.PutStandingOrders("g", 3, map[string]StandingOrders{"england": en}, FoldMark{Folded: 1}, false); err != nil {
			return err
		}
		if err := tx.PutStandingOrders("g", 3, map[string]StandingOrders{"france": fr}, FoldMark{Folded: 2}, false); err != nil {
			return err
		}
		got, mark, err := tx.StandingOrders("g", 3)
		if err != nil {
			return err
		}
		if want := map[string]StandingOrders{"england": en, "france": fr}; !reflect.DeepEqual(got, want) || mark.Folded != 2 {
			t.Errorf("in the transaction: %+v %+v, want %+v", got, mark, want)
		}
		got["england"].All.Lines[0] = "changed by the caller"
		again, _, _ := tx.StandingOrders("g", 3)
		if again["england"].All.Lines[0] != "F Lon - Nth" {
			t.Error("a caller changed the transaction's folds")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, mark := readFolds(t, db); !reflect.DeepEqual(got, map[string]StandingOrders{"england": en, "france": fr}) || mark != (FoldMark{Folded: 2}) {
		t.Fatalf("after the commit: %+v %+v", got, mark)
	}

	// A rebuild keeps only what it puts.
	ru := StandingOrders{All: foldOf("A Mos H")}
	err = db.Update(func(tx *Tx) error {
		if err := tx.PutStandingOrders("g", 3, map[string]StandingOrders{"england": en}, FoldMark{Folded: 3}, false); err != nil {
			return err
		}
		return tx.PutStandingOrders("g", 3, map[string]StandingOrders{"russia": ru}, FoldMark{Folded: 4, Drops: 1}, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, mark := readFolds(t, db); !reflect.DeepEqual(got, map[string]StandingOrders{"russia": ru}) || mark != (FoldMark{Folded: 4, Drops: 1}) {
		t.Fatalf("after a rebuild: %+v %+v", got, mark)
	}

	// A failed transaction leaves the folds as they were.
	boom := errors.New("boom")
	err = db.Update(func(tx *Tx) error {
		if err := tx.PutStandingOrders("g", 3, map[string]StandingOrders{"england": en}, FoldMark{Folded: 9}, true); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	if got, mark := readFolds(t, db); !reflect.DeepEqual(got, map[string]StandingOrders{"russia": ru}) || mark.Folded != 4 {
		t.Fatalf("after a failed transaction: %+v %+v", got, mark)
	}

	// Deleting the versions forgets the folds, those put just before too.
	err = db.Update(func(tx *Tx) error {
		if err := tx.PutStandingOrders("g", 3, map[string]StandingOrders{"england": en}, FoldMark{Folded: 5}, false); err != nil {
			return err
		}
		return tx.DeleteOrderSets("g", 3)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, mark := readFolds(t, db); len(got) != 0 || mark != (FoldMark{}) {
		t.Fatalf("after DeleteOrderSets: %+v %+v", got, mark)
	}

	if err := db.View(func(tx *Tx) error {
		return tx.PutStandingOrders("g", 3, map[string]StandingOrders{"england": en}, FoldMark{Folded: 1}, false)
	}); err == nil {
		t.Error("a read-only transaction put folds")
	}
}

// The order sets a transaction added read back in it (OrderSetsSince,
// OrderSets) exactly as a later transaction decodes them from their
// records, whatever they hold: a time in UTC, with a monotonic reading or
// in another zone, strings that are not UTF-8; changing what was read
// back changes neither the records nor the next read.
func TestOrderSetsReadBackInTheTransactionAsDecoded(t *testing.T) {
	db := openTest(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	sets := []OrderSet{
		{Power: "england", Address: "a@x", Rank: 1, MsgID: "m1@x", Received: at, Lines: []string{"F Lon - Nth", "A Lvp H"}},
		{Power: "france", Address: "b@x", GM: true, MsgID: "m2@x", Received: time.Now().UTC(), Lines: []string{}},
		{Power: "italy", MsgID: "m3@x", Received: at.In(time.FixedZone("X", 3600))},
		{Power: "russia", Address: "c\xff@x", MsgID: "m4@x", Received: at},
		{Power: "russia", Address: "c@x", MsgID: "m5\xfe@x", Received: at},
		{Power: "russia", Address: "c@x", MsgID: "m6@x", Received: at, Lines: []string{"A Mos H", "A Mos \xff H"}},
		{Power: "russia\xff", Address: "c@x", MsgID: "m7@x", Received: at},
	}
	var inTx, inTxAll []OrderSet
	if err := db.Update(func(tx *Tx) error {
		for _, s := range sets {
			if err := tx.AddOrderSet("g", 3, s); err != nil {
				return err
			}
		}
		var err error
		if inTx, _, err = tx.OrderSetsSince("g", 3, 0); err != nil {
			return err
		}
		inTx[0].Lines[0] = "changed"
		again, _, _ := tx.OrderSetsSince("g", 3, 0)
		if again[0].Lines[0] != "F Lon - Nth" {
			t.Errorf("changing a set read back changed the next read: %q", again[0].Lines)
		}
		inTx = again
		inTxAll, err = tx.OrderSets("g", 3)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var later, laterAll []OrderSet
	db.View(func(tx *Tx) (err error) {
		if later, _, err = tx.OrderSetsSince("g", 3, 0); err != nil {
			return err
		}
		laterAll, err = tx.OrderSets("g", 3)
		return err
	})
	if len(later) != len(sets) || !reflect.DeepEqual(inTx, later) || !reflect.DeepEqual(inTxAll, laterAll) || !reflect.DeepEqual(later, laterAll) {
		t.Errorf("read back in the transaction:\n%+v\nand later:\n%+v", inTx, later)
	}
}

// TestPrefetchOrders: after PrefetchOrders a transaction reads the
// standing orders and the versions after them of each game's open phase
// as one without it does, as copies; what it writes after the prefetch,
// or wrote before it, reads back; a phase the transaction already holds is
// not read again over what it wrote; a record that does not decode is
// still reported.
func TestPrefetchOrders(t *testing.T) {
	db := openTest(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	en := StandingOrders{All: foldOf("F Lon - Nth", "A Lvp H")}
	if err := db.Update(func(tx *Tx) error {
		for i, name := range []string{"a", "b", "c", "d"} {
			if err := tx.PutGame(&Game{Name: name, Variant: "standard", Status: Active, OpenPhase: OpenPhase{Phase: 3 + i}}); err != nil {
				return err
			}
			for j, power := range []string{"england", "france", "italy"} {
				if err := tx.AddOrderSet(name, 3+i, OrderSet{Power: power, MsgID: name + power, Received: at, Lines: []string{"A Par H", name}}); err != nil {
					return err
				}
				if j == 0 && i%2 == 0 { // a and c have england folded
					if err := tx.PutStandingOrders(name, 3+i, map[string]StandingOrders{"england": en}, FoldMark{Folded: 1}, false); err != nil {
						return err
					}
				}
			}
		}
		// d's folds do not decode
		return tx.bucket(bucketStanding).Put(standingKey("d", 6, "england"), []byte("{not json"))
	}); err != nil {
		t.Fatal(err)
	}
	type read struct {
		folds map[string]StandingOrders
		mark  FoldMark
		sets  []OrderSet
		last  uint64
		err   error
	}
	readAll := func(tx *Tx) map[string]read {
		out := map[string]read{}
		for i, name := range []string{"a", "b", "c", "d"} {
			var r read
			r.folds, r.mark, r.err = tx.StandingOrders(name, 3+i)
			if r.err == nil {
				r.sets, r.last, r.err = tx.OrderSetsSince(name, 3+i, r.mark.Folded)
			}
			out[name] = r
		}
		return out
	}
	var without map[string]read
	db.View(func(tx *Tx) error { without = readAll(tx); return nil })
	if without["d"].err == nil {
		t.Fatal("d's damaged folds read without an error")
	}
	fr := StandingOrders{All: foldOf("A Par - Bur")}
	putC := func(tx *Tx) error { // c's folds, written before the prefetch: kept, not read over
		return tx.PutStandingOrders("c", 5, map[string]StandingOrders{"france": fr}, FoldMark{Folded: 2}, false)
	}
	var wantC read
	rollBack := errors.New("roll back")
	db.Update(func(tx *Tx) error {
		if err := putC(tx); err != nil {
			t.Fatal(err)
		}
		wantC = readAll(tx)["c"]
		return rollBack
	})
	if len(wantC.folds) != 2 {
		t.Fatalf("c with france written: %+v", wantC)
	}
	if err := db.Update(func(tx *Tx) error {
		if err := putC(tx); err != nil {
			return err
		}
		names := []string{"a", "b", "c", "d", "missing"}
		tx.PrefetchGames(names)
		tx.PrefetchOrders(names)
		with := readAll(tx)
		for _, name := range []string{"a", "b"} {
			if !reflect.DeepEqual(with[name], without[name]) {
				t.Errorf("%s after the prefetch: %+v, want %+v", name, with[name], without[name])
			}
		}
		if with["d"].err == nil {
			t.Error("d's damaged folds read without an error after the prefetch")
		}
		if !reflect.DeepEqual(with["c"], wantC) {
			t.Errorf("c, written before the prefetch: %+v, want %+v", with["c"], wantC)
		}
		with["a"].folds["england"].All.Lines[0] = "changed"
		with["b"].sets[0].Lines[0] = "changed"
		again := readAll(tx)
		if again["a"].folds["england"].All.Lines[0] != "F Lon - Nth" || again["b"].sets[0].Lines[0] != "A Par H" {
			t.Error("changing what was read changed the transaction's copy")
		}
		// written after the prefetch: read back
		if err := tx.AddOrderSet("b", 4, OrderSet{Power: "russia", MsgID: "late", Received: at, Lines: []string{"A Mos H"}}); err != nil {
			return err
		}
		if sets, _, _ := tx.OrderSetsSince("b", 4, 0); len(sets) != 4 || sets[3].Power != "russia" {
			t.Errorf("b's versions after one added: %+v", sets)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
