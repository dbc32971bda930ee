package store

import (
	"encoding/json"
	"fmt"
)

// The variants a GM adds as files (a Diplomacy .map in the data folder's
// maps/) are kept here by the hash of their text, once for all the games
// made from them: a game's record names the hash (Game.Map), so editing,
// renaming or deleting the file never changes the game, and a store moved
// to another daemon carries the maps its games are played on.

var bucketMaps = registerBucket([]byte("maps")) // text hash → the variant file's text

// MapFile is a variant file as a game keeps it: its name when the game
// was created (its extension says which engine reads it) and its text.
type MapFile struct {
	File string `json:"file"`
	Text string `json:"text"`
}

// PutMapText keeps a variant file under the hash of its text; a file kept
// before under that hash is left as it is.
func (tx *Tx) PutMapText(hash string, f MapFile) error {
	if err := tx.writable(); err != nil {
		return err
	}
	if tx.bucket(bucketMaps).Get([]byte(hash)) != nil {
		return nil
	}
	return putJSON(tx.bucket(bucketMaps), []byte(hash), f)
}

// MapText returns the variant file kept under hash.
func (tx *Tx) MapText(hash string) (MapFile, error) {
	var f MapFile
	if err := getJSON(tx.bucket(bucketMaps), []byte(hash), &f); err != nil {
		return f, fmt.Errorf("variant file %.12s…: %w", hash, err)
	}
	return f, nil
}

// MapTexts calls fn with each kept hash and file.
func (tx *Tx) MapTexts(fn func(hash string, f MapFile) error) error {
	return tx.bucket(bucketMaps).ForEach(func(k, v []byte) error {
		var f MapFile
		if err := json.Unmarshal(v, &f); err != nil {
			return fmt.Errorf("variant file %.12s…: %w", k, err)
		}
		return fn(string(k), f)
	})
}
