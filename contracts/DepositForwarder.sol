// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/**
 * The code behind every deposit address. Each deposit's address is an EIP-1167 clone of this
 * contract at a CREATE2 address the factory fixes from the deposit's salt, so Cambio hands the
 * address out before anything exists there: the customer's USDT simply accumulates at an address
 * with no code, and the clone is deployed only when the hot wallet sweeps it.
 *
 * No storage and no initializer: a clone that needs initialising can be front-run between
 * deployment and initialisation, and this one has nothing to set. The only authority, the
 * factory, is an immutable of the implementation; immutables are part of the implementation's
 * runtime code, which clones run through DELEGATECALL, so every clone sees the same factory.
 */
contract DepositForwarder {
    using SafeERC20 for IERC20;

    /** The DepositForwarderFactory that deployed this implementation: the only caller of flush. */
    address public immutable factory;

    error NotFactory(address caller);
    error NativeTransferFailed(address to);

    constructor() {
        factory = msg.sender;
    }

    /**
     * Moves this address's whole balance of `token` to `to` and returns the amount. The whole
     * balance, not an amount the caller names, so a deposit paid in several transfers, or topped up
     * after it was seen, leaves nothing behind. SafeERC20 because Ethereum's USDT returns no bool
     * from transfer, which a plain IERC20 call would treat as a failed decode and revert on.
     * The factory emits the event that records the sweep; the token's Transfer log is the other.
     */
    function flush(IERC20 token, address to) external returns (uint256 amount) {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        amount = token.balanceOf(address(this));
        if (amount > 0) token.safeTransfer(to, amount);
    }

    /**
     * Payers' wallets send native coin (ETH, BNB, POL) to a deposit address by mistake. Before the
     * clone is deployed the address takes it like any account; once deployed, a send lands here
     * through the clone's DELEGATECALL and is kept, so that flushNative can return it to Cambio
     * rather than the address refusing it only once it has code. A plain send from a wallet fits
     * (the wallet estimates ~24k gas); a contract's `transfer`/`send` does not: its 2,300 gas
     * stipend is less than the clone's cold DELEGATECALL (2,600, EIP-2929), so that send fails in
     * the payer's transaction and the coin stays with the payer.
     */
    receive() external payable {}

    /**
     * Moves this address's whole native balance to `to` and returns the amount; the factory's sweep
     * calls it beside flush. A call with the whole balance rather than `transfer`, whose 2,300 gas
     * would make a hot wallet behind a contract (a multisig) unable to receive it.
     */
    function flushNative(address payable to) external returns (uint256 amount) {
        if (msg.sender != factory) revert NotFactory(msg.sender);
        amount = address(this).balance;
        if (amount > 0) {
            (bool sent, ) = to.call{value: amount}("");
            if (!sent) revert NativeTransferFailed(to);
        }
    }
}
