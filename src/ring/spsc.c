/* spsc.c - bounded single-producer/single-consumer ring.
 *
 * The classic Lamport ring with C11 atomics: the producer owns `head`, the
 * consumer owns `tail`; each reads the other's index with acquire and
 * publishes its own with release, so the element copy happens-before the
 * index that makes it visible.  Indexes run freely (64-bit, never wrap in
 * practice) and are masked into the power-of-two buffer; full is
 * head - tail == capacity.  Each side caches the other's last seen index
 * to touch the shared cache line only when it must.  A full ring never
 * blocks the producer: the element is dropped and counted (relaxed counter,
 * read for reporting only). */
#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "ring/spsc.h"

struct spsc {
	alignas(64) _Atomic uint64_t head; /* next slot to write (producer) */
	uint64_t tail_cache;		   /* producer's view of tail */
	alignas(64) _Atomic uint64_t tail; /* next slot to read (consumer) */
	uint64_t head_cache;		   /* consumer's view of head */
	alignas(64) _Atomic uint64_t dropped;
	size_t elem_size;
	size_t mask;
	unsigned char *buf;
};

struct spsc *spsc_new(size_t elem_size, size_t capacity)
{
	struct spsc *r;
	size_t cap = 1;

	if (!elem_size || !capacity)
		return NULL;
	while (cap < capacity)
		cap <<= 1;
	r = aligned_alloc(64, sizeof(*r));
	if (!r)
		return NULL;
	memset(r, 0, sizeof(*r));
	r->buf = malloc(cap * elem_size);
	if (!r->buf)
		goto free_ring;
	r->elem_size = elem_size;
	r->mask = cap - 1;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	atomic_init(&r->dropped, 0);
	return r;

free_ring:
	free(r);
	return NULL;
}

void spsc_free(struct spsc *r)
{
	if (!r)
		return;
	free(r->buf);
	free(r);
}

int spsc_push(struct spsc *r, const void *elem)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (head - r->tail_cache > r->mask) {
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (head - r->tail_cache > r->mask) {
			atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
			return -ENOBUFS;
		}
	}
	memcpy(r->buf + (head & r->mask) * r->elem_size, elem, r->elem_size);
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
	return 0;
}

bool spsc_room(struct spsc *r, size_t n)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (head - r->tail_cache + n <= r->mask + 1)
		return true;
	r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
	return head - r->tail_cache + n <= r->mask + 1;
}

void *spsc_reserve(struct spsc *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	if (head - r->tail_cache > r->mask) {
		r->tail_cache = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (head - r->tail_cache > r->mask)
			return NULL;
	}
	return r->buf + (head & r->mask) * r->elem_size;
}

void spsc_publish(struct spsc *r)
{
	uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	/* the slot's contents happen-before the index that shows it */
	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

void spsc_drop(struct spsc *r)
{
	atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
}

const void *spsc_peek(struct spsc *r)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (tail == r->head_cache) {
		r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
		if (tail == r->head_cache)
			return NULL;
	}
	return r->buf + (tail & r->mask) * r->elem_size;
}

void spsc_release(struct spsc *r)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	/* the slot is the producer's again only now: read it before this */
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}

int spsc_pop(struct spsc *r, void *out)
{
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	if (tail == r->head_cache) {
		r->head_cache = atomic_load_explicit(&r->head, memory_order_acquire);
		if (tail == r->head_cache)
			return -EAGAIN;
	}
	memcpy(out, r->buf + (tail & r->mask) * r->elem_size, r->elem_size);
	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
	return 0;
}

size_t spsc_count(const struct spsc *r)
{
	uint64_t tail = atomic_load_explicit(&((struct spsc *)r)->tail, memory_order_acquire);
	uint64_t head = atomic_load_explicit(&((struct spsc *)r)->head, memory_order_acquire);
	return head >= tail ? (size_t)(head - tail) : 0;
}

uint64_t spsc_dropped(const struct spsc *r)
{
	return atomic_load_explicit(&((struct spsc *)r)->dropped, memory_order_relaxed);
}

size_t spsc_capacity(const struct spsc *r)
{
	return r->mask + 1;
}
