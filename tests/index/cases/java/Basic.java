package com.example.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.*;
import static java.util.Objects.requireNonNull;

/**
 * Keeps track of items in stock.
 */
public class Inventory {
    /** Default number of items per page. */
    public static final int PAGE_SIZE = 50;
    private static final String PREFIX = "sku-", SUFFIX = "";
    private final Map<String, Item> items = new ConcurrentHashMap<>();
    private int version;

    /**
     * Creates an empty inventory.
     */
    public Inventory() {
        this(new ArrayList<>());
    }

    public Inventory(List<Item> initial) {
        initial.forEach(this::add);
    }

    /** Adds an item, replacing any item with the same SKU. */
    public synchronized void add(Item item) {
        requireNonNull(item, "item");
        items.put(PREFIX + item.sku(), item);
        version++;
    }

    // Finds an item by SKU.
    public Item find(String sku) throws NotFoundException {
        Item item = items.get(PREFIX + sku);
        if (item == null) {
            throw new NotFoundException(sku);
        }
        return item;
    }

    public <T extends Comparable<T>> List<T> sorted(java.util.function.Function<Item, T> key) {
        List<T> out = new ArrayList<>();
        for (Item item : items.values()) {
            out.add(key.apply(item));
        }
        Collections.sort(out);
        return out;
    }

    @Override
    public String toString() {
        return String.format("Inventory(%d items)", items.size());
    }
}
