package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"pbemd/adjudicator"
	"pbemd/mailer"
	"pbemd/outbox"
	"pbemd/store"
)

// Pictures in mail.
//
// Every results mail, STATUS reply and MAP reply of a game whose engine is
// an adjudicator.Drawer carries a PNG of the position as an inline
// attachment after the text. A picture is drawn once per game, phase and
// class of readers, however many mails carry it: an engine whose picture
// shows every reader the same (no adjudicator.Viewer, or one that declares
// Info.PublicPicture) has one class, the public picture every reader
// gets; an engine with hidden information in its pictures (Empire's fog of
// war, a hand of cards) draws each power's own picture, and observers and
// the GM get the public one.
//
// Drawing costs more than everything else a results mail needs, so it is
// not done in the transaction that sends the mail: the mails are queued
// with the picture as an outbox part not made yet (outbox.Writer.NewPart,
// with a pictureJob saying what to draw), held there, and the picture is
// drawn after the commit, outside any write transaction, and stored once
// for all its mails (outbox.PutParts), which lets them go. No mail leaves without
// its picture: a held mail is not due. A picture whose drawing was cut
// short (the daemon killed after the commit) is drawn at the next Tick
// (drawPending), from the job kept in the store.

// drawBatch is how many pictures are drawn before one transaction stores
// them: about 100 KB each, so a batch holds a few MB, and the commits of
// a burst of 10,000 pictures are a small share of its time.
const drawBatch = 64

// mailPicture is one picture of a position for one class of readers, as
// the mails of one transaction carry it.
type mailPicture struct {
	job      pictureJob
	filename string
	key      string // the outbox part, named when its first mail is written (nameParts)
	// state and results are the position drawn, while the daemon that
	// queued the mails has it in memory (the store has it too: job).
	state, results []byte
}

// pictureJob is what drawing a picture needs, kept in the store with the
// part until the picture is made: the game's variant, and the position
// either as the state after a phase of the history (with that phase's
// results) or as a state of its own.
type pictureJob struct {
	Game    string `json:"game"`
	Variant string `json:"variant"`
	Map     string `json:"map,omitempty"` // the game's Map: its variant file's text hash
	Viewer  string `json:"viewer,omitempty"`
	File    string `json:"file"`
	// Phase is the history record drawn (its StateAfter and Data) when
	// State is nil.
	Phase int    `json:"phase"`
	State []byte `json:"state,omitempty"`
}

// pictureKey names a picture in a transaction's cache.
type pictureKey struct {
	game, phase, viewer string
	record              int // -1: the state given
}

// viewerClass is the viewer whose picture a power's reader gets: the power
// itself when the engine has hidden information in its pictures, the
// public picture ("") otherwise. Observers and the GM pass power "".
func viewerClass(e adjudicator.Engine, power string) string {
	if _, hidden := e.(adjudicator.Viewer); hidden && !e.Info().PublicPicture {
		return power
	}
	return ""
}

// textViewer is the viewer whose text (TextMap) a power's reader gets.
func textViewer(e adjudicator.Engine, power string) string {
	if _, hidden := e.(adjudicator.Viewer); hidden {
		return power
	}
	return ""
}

// picture returns the picture of a position for power's class of
// readers: state with results, which are the state after history record
// rec and its results when rec ≥ 0, or a state alone (rec < 0, results
// nil); phase names it. It is the same value for every mail of the
// transaction that asks for it; nil when the game's engine draws no
// pictures.
func (tx *txn) picture(g *store.Game, phase string, rec int, state, results []byte, power string) *mailPicture {
	e, err := engineFor(g)
	if err != nil || (rec < 0 && len(state) == 0) {
		return nil
	}
	if _, ok := e.(adjudicator.Drawer); !ok {
		return nil
	}
	viewer := viewerClass(e, power)
	if rec < 0 {
		rec = -1
	}
	k := pictureKey{g.Name, phase, viewer, rec}
	if p := tx.pictures[k]; p != nil {
		return p
	}
	if tx.pictures == nil {
		tx.pictures = map[pictureKey]*mailPicture{}
	}
	file := g.Name + "-" + phase + ".png"
	job := pictureJob{Game: g.Name, Variant: g.Variant, Map: g.Map, Viewer: viewer, File: file, Phase: rec}
	if rec < 0 {
		job.State = state
	}
	p := &mailPicture{job: job, filename: file, state: state, results: results}
	tx.pictures[k] = p
	return p
}

// resultsPicture is the picture of a processed phase for a reader of
// power ("" for observers and the GM).
func (tx *txn) resultsPicture(g *store.Game, rec *store.PhaseRecord, power string) []*mailPicture {
	return pics(tx.picture(g, rec.PhaseID, rec.Phase, rec.StateAfter, rec.Data, power))
}

func pics(p *mailPicture) []*mailPicture {
	if p == nil {
		return nil
	}
	return []*mailPicture{p}
}

// nameParts names the outbox part of each picture m carries (each
// distinct picture once, with its job, when the first mail that carries it
// is written) and returns the names, in order. The pictures named go in
// tx.named, for the caller to draw.
func nameParts(tx *txn, m *Outgoing) ([]string, error) {
	if len(m.Pictures) == 0 {
		return nil, nil
	}
	keys := make([]string, len(m.Pictures))
	for i, p := range m.Pictures {
		if p.key == "" {
			job, err := json.Marshal(p.job)
			if err != nil {
				return nil, err
			}
			if p.key, err = tx.writer().NewPart(job); err != nil {
				return nil, fmt.Errorf("picture %s: %w", p.filename, err)
			}
			tx.named = append(tx.named, p)
		}
		keys[i] = p.key
	}
	return keys, nil
}

// attachPictures puts a place for each picture of m in out: an image/png
// part whose body is a hole of the composed mail. It reads only the
// pictures' file names: the composers run while other mails of the
// transaction are written (nameParts).
func attachPictures(m *Outgoing, out *mailer.Outgoing) {
	for _, p := range m.Pictures {
		out.Attachments = append(out.Attachments, mailer.Attachment{
			Filename: p.filename, ContentType: "image/png", Inline: true, Encoded: []byte{},
		})
	}
}

// drawPending draws every picture the outbox waits for (those a daemon
// killed after the commit left undrawn), drawBatch at a time on every
// core, from the store.
func (d *Daemon) drawPending() error {
	for {
		pending, err := outbox.PendingParts(d.db, drawBatch)
		if err != nil {
			return err
		}
		var todo []*mailPicture
		for _, pp := range pending {
			p := &mailPicture{key: pp.Key}
			if err := json.Unmarshal(pp.Job, &p.job); err != nil {
				d.log.Error("picture job does not decode", "part", pp.Key, "err", err)
			}
			todo = append(todo, p)
		}
		if len(todo) == 0 {
			return nil
		}
		if err := d.drawPictures(todo); err != nil {
			return err
		}
	}
}

// drawPictures draws pics on every core, drawBatch at a time, and stores
// each batch in one transaction, which lets their mails go.
func (d *Daemon) drawPictures(pics []*mailPicture) error {
	for len(pics) > 0 {
		batch := pics[:min(drawBatch, len(pics))]
		pics = pics[len(batch):]
		made, err := d.makePictures(batch)
		if err != nil {
			return err
		}
		if err := d.storePictures(batch, made); err != nil {
			return err
		}
	}
	return nil
}

// makePictures draws pics on every core, each sealed for the store where
// it is drawn (outbox.Seal), not in the transaction that stores them:
// the write lock is held for less time, and the burst's next batch waits
// less for it.
func (d *Daemon) makePictures(pics []*mailPicture) ([]outbox.Made, error) {
	made := make([]outbox.Made, len(pics))
	errs := make([]error, len(pics))
	parallel(len(pics), func(i int) { made[i], errs[i] = outbox.Seal(d.db, d.makePicture(pics[i])) })
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("picture %s: %w", pics[i].job.File, err)
		}
	}
	return made, nil
}

// storePictures stores the pictures made of pics in one transaction,
// which lets their mails go.
func (d *Daemon) storePictures(pics []*mailPicture, made []outbox.Made) error {
	keys := make([]string, len(pics))
	for i, p := range pics {
		keys[i] = p.key
	}
	if err := outbox.PutParts(d.db, keys, made); err != nil {
		return err
	}
	d.metrics.PicturesDrawn.Add(int64(len(pics)))
	d.opt.Kick()
	return nil
}

// A pictureLine draws the pictures of a burst's batches while the next
// batch is adjudicated: processDue hands it each batch's pictures once the
// batch is committed (its mails held), and goes on. One goroutine draws
// (drawBatch at a time, on every core), another stores what is drawn,
// everything drawn since its last transaction in one, as soon as the write
// lock (which the next batch holds while it is adjudicated) is free, so
// drawing need not wait for it. Memory stays bounded: a batch is taken
// only once the one before is drawn (so at most two batches' positions
// are held, the one drawn and the one handed in), and at most
// storeAhead drawBatches of pictures wait to be stored. The guarantee is
// the one of drawPictures: a mail is held until its picture is stored, and
// what a daemon killed meanwhile left undrawn the next Tick draws
// (drawPending).
type pictureLine struct {
	d      *Daemon
	in     chan []*mailPicture
	made   chan madeBatch
	done   chan struct{}
	closed bool
	mu     sync.Mutex
	err    error // the first error: nothing more is drawn
	fails  atomic.Bool
}

type madeBatch struct {
	pics []*mailPicture
	png  []outbox.Made
}

// storeAhead is how many drawBatches of pictures may wait to be stored.
const storeAhead = 1

func (d *Daemon) newPictureLine() *pictureLine {
	l := &pictureLine{d: d, in: make(chan []*mailPicture), made: make(chan madeBatch, storeAhead), done: make(chan struct{})}
	go l.draw(l.in, l.made)
	go l.store(l.made)
	return l
}

// add hands the line the pictures of a committed batch; it waits while
// the batch before is still being drawn. It returns the line's error, if
// it has failed (the pictures are then left to the next Tick).
func (l *pictureLine) add(pics []*mailPicture) error {
	if l.fails.Load() {
		return l.close()
	}
	if len(pics) > 0 {
		l.in <- pics
	}
	return nil
}

// close waits until everything handed in is drawn and stored, and returns
// the first error.
func (l *pictureLine) close() error {
	if !l.closed {
		l.closed = true
		close(l.in)
		<-l.done
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

func (l *pictureLine) fail(err error) {
	l.mu.Lock()
	if l.err == nil {
		l.err = err
	}
	l.mu.Unlock()
	l.fails.Store(true)
}

func (l *pictureLine) draw(in <-chan []*mailPicture, made chan<- madeBatch) {
	defer close(made)
	for pics := range in {
		for len(pics) > 0 && !l.fails.Load() {
			batch := pics[:min(drawBatch, len(pics))]
			pics = pics[len(batch):]
			png, err := l.d.makePictures(batch)
			if err != nil {
				l.fail(err)
				continue
			}
			made <- madeBatch{batch, png}
		}
	}
}

func (l *pictureLine) store(made <-chan madeBatch) {
	defer close(l.done)
	for b := range made {
		// What is drawn by the time the lock is ours goes in one
		// transaction, up to about drawBatch pictures (a transaction
		// holds its pictures twice: sealed, and in its pages).
		pics, png := b.pics, b.png
	more:
		for len(pics) < drawBatch {
			select {
			case o, ok := <-made:
				if !ok {
					break more
				}
				pics, png = append(pics[:len(pics):len(pics)], o.pics...), append(png[:len(png):len(png)], o.png...)
			default:
				break more
			}
		}
		if l.fails.Load() {
			continue
		}
		if err := l.d.storePictures(pics, png); err != nil {
			l.fail(err)
		}
	}
}

// makePicture draws p and encodes it as PNG: from the position in memory
// when the daemon that queued its mails draws it, else from its job (the
// state in the job, or the history record it names). A picture that
// cannot be drawn (a bug, or a phase since rolled back) is a picture that
// says so, so its mails still go: the GM finds the cause in the log.
func (d *Daemon) makePicture(p *mailPicture) []byte {
	job := p.job
	png, err := func() ([]byte, error) {
		e, err := engineFor(&store.Game{Name: job.Game, Variant: job.Variant, Map: job.Map})
		if err != nil {
			return nil, err
		}
		dr, ok := e.(adjudicator.Drawer)
		if !ok {
			return nil, fmt.Errorf("variant %q draws no pictures", job.Variant)
		}
		state, results := p.state, p.results
		switch {
		case state != nil:
		case job.State != nil:
			state = job.State
		default:
			err := d.db.View(func(tx *store.Tx) error {
				rec, err := tx.Phase(job.Game, job.Phase)
				if err != nil {
					return err
				}
				state, results = rec.StateAfter, rec.Data
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		pic, err := dr.Draw(state, results, job.Viewer)
		if err != nil {
			return nil, fmt.Errorf("draw: %w", err)
		}
		var buf bytes.Buffer
		if err := pic.WritePNG(&buf); err != nil {
			return nil, fmt.Errorf("encode: %w", err)
		}
		return buf.Bytes(), nil
	}()
	p.state, p.results = nil, nil // drawn: let them go
	if err == nil {
		return png
	}
	d.log.Error("picture not drawn: its mails carry a picture that says so", "game", job.Game, "picture", job.File, "err", err)
	return noPicture()
}

// noPicture is the picture a mail carries when its position could not be
// drawn.
func noPicture() []byte {
	var buf bytes.Buffer
	if err := adjudicator.NoPicture("I could not draw the picture of this position this time; the GM can see why in the log.").WritePNG(&buf); err != nil {
		panic(fmt.Sprintf("the picture of no picture: %v", err)) // a fixed scene: a bug
	}
	return buf.Bytes()
}

// parallel runs fn(0) … fn(n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, fn func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				fn(i)
			}
		}()
	}
	wg.Wait()
}
