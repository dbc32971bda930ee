package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Secrets kept beside the store in files of their own, such as the OAuth
// refresh token of the GM's mailbox: a command that runs while pbemd serve
// holds the store (pbemd auth login) can still write them. They are sealed
// with the store's key (KeyPath) for their kind, so the file alone, or a
// backup of the data folder without the key, reveals nothing, and written
// whole (a temporary file, synced, renamed) with mode 0600.

// WriteSealedFile seals plain with the key of the store at storePath and
// writes it to path. A store that has no key yet (no store, or one that
// never sealed anything) gets one, as its first Open would make it.
func WriteSealedFile(storePath, path, kind string, plain []byte) error {
	s, err := fileSealer(storePath, true)
	if err != nil {
		return err
	}
	return writePrivate(path, s.seal("file:"+kind, plain), true)
}

// ReadSealedFile opens what WriteSealedFile wrote. A missing file is an
// error that wraps fs.ErrNotExist.
func ReadSealedFile(storePath, path, kind string) ([]byte, error) {
	sealed, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := fileSealer(storePath, false)
	if err != nil {
		return nil, err
	}
	plain, err := s.open("file:"+kind, sealed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (it was sealed with another key, or is damaged)", path, err)
	}
	return plain, nil
}

func fileSealer(storePath string, create bool) (*sealer, error) {
	kp := KeyPath(storePath)
	key, err := readKey(storePath, kp)
	if errors.Is(err, fs.ErrNotExist) && create {
		if _, serr := os.Stat(storePath); serr == nil {
			// the store exists without a key: only its own Open may
			// decide whether a new key is safe (see loadKey)
			return nil, fmt.Errorf("store %s has no key file %s yet: start pbemd serve once, then try again", storePath, kp)
		}
		if err := os.MkdirAll(filepath.Dir(kp), 0o700); err != nil {
			return nil, err
		}
		key, err = createKey(kp)
	}
	if err != nil {
		return nil, err
	}
	return newSealer(key)
}
