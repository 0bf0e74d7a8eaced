package store

import (
	"context"
	"io"
	"net/http"
	"time"
)

// Store is a key/value store backed by a file.
type Store struct {
	sync.RWMutex
	path    string
	entries map[Key]*entry
	ttl     time.Duration
}

type entry struct {
	value   []byte
	expires time.Time
}

// Backend is implemented by storage engines.
type Backend interface {
	io.Closer
	// Get loads the value of a key.
	Get(ctx context.Context, key Key) ([]byte, error)
	Put(ctx context.Context, key Key, value []byte) error
}

// Number is any numeric type.
type Number interface {
	~int | ~int64 | ~float64
}

// Cache is a generic in-memory cache.
type Cache[K comparable, V any] struct {
	items map[K]V
	onEvict func(K, V)
}

type (
	// Handler serves store requests over HTTP.
	Handler struct {
		store *Store
	}

	// Stats counts operations.
	Stats map[string]int
)

// New creates an empty store at path.
func New(path string) *Store {
	return &Store{path: path, entries: make(map[Key]*entry)}
}

// Get returns the value stored under key.
func (s *Store) Get(ctx context.Context, key Key) ([]byte, error) {
	s.RLock()
	defer s.RUnlock()
	e, ok := s.entries[key]
	if !ok || e.expired(time.Now()) {
		return nil, ErrNotFound
	}
	return e.value, nil
}

func (e entry) expired(now time.Time) bool {
	return !e.expires.IsZero() && now.After(e.expires)
}

// Len reports the number of cached items.
func (c *Cache[K, V]) Len() int { return len(c.items) }

func (c Cache[K, V]) Peek(key K) (V, bool) {
	v, ok := c.items[key]
	return v, ok
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	value, err := h.store.Get(r.Context(), Key(r.URL.Path))
	if err != nil {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	w.Write(value)
}

var _ Backend = (*Store)(nil)
