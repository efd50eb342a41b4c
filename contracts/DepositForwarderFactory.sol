// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";
import {Clones} from "@openzeppelin/contracts/proxy/Clones.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {DepositForwarder} from "./DepositForwarder.sol";

/**
 * Deploys and empties deposit addresses for one network. A deposit address is the CREATE2
 * address of an EIP-1167 clone of `implementation` with the deposit's salt, computable offline
 * (functions/networks/evm/forwarder-address.ts) and equal to predictAddress(salt). Nothing is
 * deployed when a deposit is created; sweep deploys and flushes many addresses in one
 * transaction, paid by the hot wallet that owns this factory.
 *
 * OpenZeppelin's Clones rather than a CREATE2 of the whole forwarder: every deposit address is
 * deployed once, and a clone's code is 45 bytes, so a sweep pays about 54k gas per new address
 * (deployment and transfer) where deploying the forwarder alone costs about 200k. And the clone
 * bytes come from audited code rather than our own assembly, which the offline computation
 * mirrors byte for byte.
 */
contract DepositForwarderFactory is Ownable {
    /**
     * Deployed by this constructor rather than passed in: the implementation must name this
     * factory as its only caller, which a separately deployed one could only learn through an
     * initializer someone else might call first. It also makes the implementation's address (this
     * factory's first CREATE, nonce 1) and so every deposit address a function of the factory's
     * address alone.
     */
    address public immutable implementation;

    /** One per address emptied (zero balances are skipped, and so emit nothing). */
    event Swept(bytes32 indexed salt, address indexed forwarder, IERC20 indexed token, uint256 amount);
    /** One per address whose native coin (ETH, BNB, POL) was moved, beside its Swept if it held USDT too. */
    event SweptNative(bytes32 indexed salt, address indexed forwarder, uint256 amount);

    error ZeroDestination();

    constructor(address owner_) Ownable(owner_) {
        implementation = address(new DepositForwarder());
    }

    function predictAddress(bytes32 salt) public view returns (address) {
        return Clones.predictDeterministicAddress(implementation, salt);
    }

    /**
     * Native coin (ETH, BNB, POL) held by each account, in one eth_call: the sweeper and reconcile
     * read many deposit addresses at once, and a provider bills each call, not each address.
     */
    function nativeBalances(address[] calldata accounts) external view returns (uint256[] memory balances) {
        balances = new uint256[](accounts.length);
        for (uint256 i = 0; i < accounts.length; ++i) balances[i] = accounts[i].balance;
    }

    /**
     * For each salt, deploys its forwarder unless it has code already, then moves its whole
     * `token` balance and its whole native balance to `to`; returns the total of `token` moved.
     * An address that was swept before (and so deployed) is only flushed, so a batch that repeats
     * or mixes old and new deposits does not revert: cloneDeterministic would revert on an occupied
     * address. An address holding neither is skipped before deployment, so a batch never pays ~40k
     * gas to deploy an empty address. Native coin rides in the same batch as USDT: a payer's
     * mistaken ETH is not locked at the address, and costs no transaction of its own.
     */
    function sweep(IERC20 token, bytes32[] calldata salts, address to) external onlyOwner returns (uint256 total) {
        if (to == address(0)) revert ZeroDestination();
        for (uint256 i = 0; i < salts.length; ++i) {
            bytes32 salt = salts[i];
            address payable forwarder = payable(predictAddress(salt));
            bool holdsToken = token.balanceOf(forwarder) > 0;
            bool holdsNative = forwarder.balance > 0;
            if (!holdsToken && !holdsNative) continue;
            if (forwarder.code.length == 0) Clones.cloneDeterministic(implementation, salt);
            if (holdsToken) {
                uint256 amount = DepositForwarder(forwarder).flush(token, to);
                total += amount;
                emit Swept(salt, forwarder, token, amount);
            }
            if (holdsNative) emit SweptNative(salt, forwarder, DepositForwarder(forwarder).flushNative(payable(to)));
        }
    }
}
