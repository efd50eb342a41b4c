// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

/*
 * BlockedListUsdt: the USDT of a local node whose stage names `tokenControls: 'blocked-list'`. It
 * reproduces the public interface and the behaviour of Tether's newer TetherToken, the one behind
 * Arbitrum's USD₮0 (and the other chains Tether has moved to it): an ERC-20 whose transfers return
 * true, with an owner who may mint and redeem, and a *blocked list* in place of the old token's
 * black list: `isBlocked(address)`, `addToBlockedList`, `removeFromBlockedList` and
 * `destroyBlockedFunds`, which burns a blocked address's balance (a Transfer to the zero address,
 * unlike the old token's `destroyBlackFunds`). A blocked address may still receive, but cannot send
 * or spend an allowance. No pause, no transfer fee and no deprecation: the contract sits behind an
 * upgradeable proxy on mainnet instead, so its address never changes. Written in this repository
 * from that contract's documented behaviour, not copied from its source, on OpenZeppelin's ERC-20
 * (without the proxy, which changes nothing a caller sees). Never deployed on a real network.
 */
contract BlockedListUsdt is ERC20, Ownable {
    uint8 private immutable _tokenDecimals;

    mapping(address => bool) public isBlocked;

    event BlockPlaced(address indexed _user);
    event BlockReleased(address indexed _user);
    event DestroyedBlockedFunds(address indexed _blockedUser, uint256 _balance);
    event Mint(address indexed _destination, uint256 _amount);
    event Redeem(uint256 _amount);

    /** No supply at deployment: the owner mints what the local runtime hands out. */
    constructor(string memory tokenName, string memory tokenSymbol, uint8 tokenDecimals) ERC20(tokenName, tokenSymbol) Ownable(msg.sender) {
        _tokenDecimals = tokenDecimals;
    }

    function decimals() public view override returns (uint8) {
        return _tokenDecimals;
    }

    function addToBlockedList(address _user) external onlyOwner {
        isBlocked[_user] = true;
        emit BlockPlaced(_user);
    }

    function removeFromBlockedList(address _user) external onlyOwner {
        isBlocked[_user] = false;
        emit BlockReleased(_user);
    }

    /** The issuer erases a blocked address's whole balance: burnt, so supply falls with it. */
    function destroyBlockedFunds(address _blockedUser) external onlyOwner {
        require(isBlocked[_blockedUser], "TetherToken: user is not blocked");
        uint256 blockedFunds = balanceOf(_blockedUser);
        _burn(_blockedUser, blockedFunds);
        emit DestroyedBlockedFunds(_blockedUser, blockedFunds);
    }

    function mint(address _destination, uint256 _amount) external onlyOwner {
        _mint(_destination, _amount);
        emit Mint(_destination, _amount);
    }

    function redeem(uint256 _amount) external onlyOwner {
        _burn(owner(), _amount);
        emit Redeem(_amount);
    }

    /** A blocked spender cannot use an allowance, whoever it draws on. */
    function transferFrom(address from, address to, uint256 value) public override returns (bool) {
        require(!isBlocked[msg.sender], "Blocked: msg.sender is blocked");
        return super.transferFrom(from, to, value);
    }

    /**
     * Every movement passes here. A blocked address sends nothing (the owner's own burn of its
     * funds aside), and nothing is sent to the token's own address, where it could never move again.
     */
    function _update(address from, address to, uint256 value) internal override {
        require(!isBlocked[from] || msg.sender == owner(), "TetherToken: from is blocked");
        require(to != address(this), "ERC20: transfer to the contract address");
        super._update(from, to, value);
    }
}
