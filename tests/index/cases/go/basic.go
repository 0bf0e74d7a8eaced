// Package store keeps key/value pairs on disk.
package store

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	_ "embed"

	"example.com/store/internal/codec"
)

import "sync"

// ErrNotFound is returned when a key is missing.
var ErrNotFound = errors.New("store: not found")

// DefaultCapacity is the initial size of a store.
const DefaultCapacity = 128

// Port range accepted by Listen.
const MinPort, MaxPort = 1024, 65535

// Compression levels.
const (
	// NoCompression stores values as they are.
	NoCompression = iota
	BestSpeed
	BestCompression
)

var (
	mu       sync.Mutex
	registry = map[string]Opener{}
)

// Opener opens a store by name.
type Opener func(ctx context.Context, name string) (*Store, error)

// Key identifies a value.
type Key = string

// Register makes an opener available under a name.
func Register(name string, open Opener) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("store: Register called twice for %q", name))
	}
	registry[name] = open
}

// Open returns the store registered under name.
func Open(ctx context.Context, name string) (*Store, error) {
	open, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("store: unknown %q: %w", name, ErrNotFound)
	}
	return open(ctx, name)
}

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func decode(data []byte, v any) error {
	return codec.Unmarshal(data, v)
}

func walk(fsys iofs.FS) error {
	return iofs.WalkDir(fsys, ".", func(path string, d iofs.DirEntry, err error) error {
		return err
	})
}

// Add sums two numbers.
//go:noinline
func Add(a, b int) int {
	return a + b
}
