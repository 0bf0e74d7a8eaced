using System;
using System.Collections.Generic;
using System.Linq;
using static System.Math;
using Json = System.Text.Json.JsonSerializer;

namespace Shop.Inventory;

/// <summary>
/// Something that can be stocked.
/// </summary>
public interface IStockable
{
    /// <summary>Units on hand.</summary>
    int Quantity { get; }

    void Restock(int amount);
}

/// <summary>A stock-keeping unit.</summary>
public record Sku(string Code, decimal Price);

/// <summary>Raised when stock runs low.</summary>
public delegate void LowStockHandler(Item item, int remaining);

public enum Category
{
    Food,
    Tools = 10,
}

/// <summary>An inventory item.</summary>
[Serializable]
public class Item : EntityBase, IStockable, IComparable<Item>
{
    public const int MaxQuantity = 1000;
    private readonly List<Sku> _skus = new List<Sku>();
    private static int s_created;

    public event LowStockHandler? LowStock;

    /// <summary>Creates an item.</summary>
    public Item(string name, Category category) : base(name)
    {
        Category = category;
        s_created++;
    }

    public Category Category { get; }

    public int Quantity { get; private set; }

    // Adds stock, clamped to the maximum.
    public void Restock(int amount)
    {
        Quantity = Min(Quantity + amount, MaxQuantity);
        if (Quantity < 5)
        {
            LowStock?.Invoke(this, Quantity);
        }
    }

    public int CompareTo(Item? other) => string.Compare(Name, other?.Name, StringComparison.Ordinal);

    public string ToJson() => Json.Serialize(this);

    public IEnumerable<Sku> Cheapest(int count)
    {
        return _skus.OrderBy(s => s.Price).Take(count);

        static bool IsValid(Sku sku) => sku.Price > 0;
    }

    /// <summary>Per-warehouse counts.</summary>
    public struct Location
    {
        public string Warehouse;
        public int Shelf;
    }
}
