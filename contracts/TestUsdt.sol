// SPDX-License-Identifier: UNLICENSED
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/**
 * The sandbox's USDT: deployed on the local anvil nodes and in tests, never on a real network
 * (stage settings name each network's real USDT contract). Its decimals are a constructor
 * argument because USDT's differ by chain: 6 on Ethereum, Polygon and Arbitrum, 18 on BSC
 * (../shared/networks.md), and the code that converts amounts must be exercised with both.
 */
contract TestUsdt is ERC20 {
    uint8 private immutable _decimals;

    /** `initialSupply` in base units, minted to the deployer (the local runtime's funder). */
    constructor(uint8 decimals_, uint256 initialSupply) ERC20("Tether USD", "USDT") {
        _decimals = decimals_;
        _mint(msg.sender, initialSupply);
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    /** Open to anyone: a sandbox token is worthless, and the local runtime tops up customers with it. */
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
