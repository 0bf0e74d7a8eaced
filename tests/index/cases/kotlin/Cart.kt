package com.example.shop

import java.io.Serializable
import kotlinx.coroutines.*
import okhttp3.Call as HttpCall

/**
 * A shopping cart.
 *
 * @property id the cart's identifier
 */
data class Cart(val id: String, var items: MutableList<Item> = mutableListOf()) : Base(), Serializable {
    /** Total price of the items. */
    val total: Int
        get() = items.sumOf { it.price }

    private var version = 0

    /** Makes a cart from a numeric id. */
    constructor(id: Int) : this(id.toString())

    init {
        require(id.isNotEmpty())
    }

    // Adds an item and returns the cart.
    fun add(item: Item): Cart {
        val added = items.add(item)
        version++
        return Builder().build(item)
    }

    suspend fun <T : Comparable<T>> sorted(
        key: (Item) -> T,
    ): List<Item> = items.sortedBy(key)

    companion object {
        /** The most items a cart holds. */
        const val MAX_ITEMS = 50

        @JvmStatic
        fun empty(): Cart = Cart("")
    }

    object Defaults {
        fun currency() = "EUR"
    }
}

/** What a checkout returns. */
sealed class Result<out T> {
    data class Ok<T>(val value: T) : Result<T>()

    class Failed(val reason: String) : Result<Nothing>()
}

enum class Color(val rgb: Int) {
    RED(0xFF0000),
    GREEN(0x00FF00);

    fun hex(): String = rgb.toString(16)
}

interface Priced {
    val price: Int

    fun discounted(percent: Int): Int
}

object Registry : Priced, Comparable<Registry> {
    override val price = 0

    override fun discounted(percent: Int) = 0

    override fun compareTo(other: Registry): Int = 0
}

fun interface Listener {
    fun onChange(cart: Cart)
}

typealias Handler = (Cart) -> Unit

/** The slug of a name: lower case, dashes for spaces. */
fun String.slug(): String = lowercase().replace(' ', '-')

fun <T> List<T>?.second(): T? = this?.getOrNull(1)

val Cart.isEmpty: Boolean
    get() = items.isEmpty()

private val registry: Map<String, Cart> = mutableMapOf()

@Throws(IllegalStateException::class)
fun checkout(cart: Cart, handler: Handler) {
    val result = cart as? Priced ?: error("not priced")
    launch { handler(cart) }
    listOf(cart).forEach(::println)
}
