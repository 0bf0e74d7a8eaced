using System.Collections.Generic;
using System.Threading.Tasks;
using Shop.Inventory;

namespace Shop.Services
{
    /// <summary>Stores items.</summary>
    public interface IRepository<T> where T : class
    {
        Task<T?> FindAsync(string id);
    }

    internal sealed class MemoryRepository : IRepository<Item>
    {
        private readonly Dictionary<string, Item> _items = new();

        public Task<Item?> FindAsync(string id)
        {
            _items.TryGetValue(id, out var item);
            return Task.FromResult(item);
        }
    }

    namespace Reports
    {
        // Monthly sales report.
        public static class SalesReport
        {
            public static async Task<decimal> TotalAsync(IRepository<Item> repo, string[] ids)
            {
                decimal total = 0;
                foreach (var id in ids)
                {
                    var item = await repo.FindAsync(id);
                    total += item?.Quantity ?? 0;
                }
                var report = new Shop.Reporting.Report<decimal>(total);
                report.Print();
                return total;
            }
        }
    }
}
