using System;

namespace Shop.Broken
{
    /// <summary>Before the error.</summary>
    public class Before
    {
        public int Value { get; set; }

        public void Ok() { Console.WriteLine(Value); }
    }

    public class Middle
    {
        // The argument list is never closed.
        public void Broken(int x
        {
            var y = x + ;
        }
    }

    /// <summary>After the error.</summary>
    public class After
    {
        public string Name() => "after";
    }
}
